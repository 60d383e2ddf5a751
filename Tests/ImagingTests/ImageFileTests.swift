import Foundation
import Glibc
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

/// Reading image files: what is refused before reading, and how each failure is reported.
@Suite("ImageDecoder: files", .hangGuard)
struct ImageFileTests {
    @Test("a file over the size limit is refused from its size, before reading")
    func oversizedFile() throws {
        #expect(ImageDecoder.maxFileSize == 256 << 20)
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A sparse file: no disk space, and reading it would take 256 MiB of memory.
        let url = directory.appendingPathComponent("huge.jpg")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data([0xFF, 0xD8, 0xFF])))
        let size = ImageDecoder.maxFileSize + 1
        #expect(truncate(url.path, off_t(size)) == 0)
        expectTasksError(
            .invalidArgumentError,
            containing: ["\(url.path): The image file is too large", "\(size) bytes", "268435456 bytes (256 MiB)"]
        ) {
            _ = try ImageDecoder.decode(contentsOf: url)
        }
    }

    @Test(
        "devices are refused without being read",
        arguments: [
            ("/dev/zero", "a character device"), ("/dev/urandom", "a character device"), ("/dev/null", "a character device"),
        ])
    func devices(path: String, kind: String) {
        expectTasksError(.invalidArgumentError, containing: ["\(path): Expected a regular image file, but this is", kind]) {
            _ = try ImageDecoder.decode(contentsOf: URL(fileURLWithPath: path))
        }
    }

    /// Opening a FIFO for reading blocks until a writer comes: it must be refused unopened.
    @Test("a FIFO is refused without being opened")
    func fifo() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pipe.jpg").path
        try #require(mkfifo(path, 0o644) == 0)
        expectTasksError(.invalidArgumentError, containing: ["\(path): Expected a regular image file, but this is", "a FIFO"]) {
            _ = try ImageDecoder.decode(contentsOf: URL(fileURLWithPath: path))
        }
    }

    @Test("a symbolic link to a regular file is read; a link loop is an error naming the path")
    func symbolicLinks() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("picture.png"), link = directory.appendingPathComponent("link.png")
        try fixture(Fixtures.pngRGB8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(try ImageDecoder.decode(contentsOf: link).pixels.width == TestPicture.width)
        let loop = directory.appendingPathComponent("loop.png")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        expectTasksError(.invalidArgumentError, containing: ["\(loop.path): Failed to read the image file", "symbolic links"]) {
            _ = try ImageDecoder.decode(contentsOf: loop)
        }
    }

    @Test("a URL that is not a file URL is refused, naming it")
    func nonFileURL() throws {
        let url = try #require(URL(string: "http://example.com/images/burger.jpg"))
        expectTasksError(
            .invalidArgumentError,
            containing: ["http://example.com/images/burger.jpg: Failed to read image: only file URLs are supported"]
        ) {
            _ = try ImageDecoder.decode(contentsOf: url)
        }
    }

    @Test(
        "a missing file, or one under a missing folder or under a file, is notFound",
        arguments: [
            "/nonexistent/picture.jpg", "/dev/null/picture.jpg",
        ])
    func missing(path: String) {
        expectTasksError(.notFoundError, containing: ["\(path): The image file was not found"]) {
            _ = try ImageDecoder.decode(contentsOf: URL(fileURLWithPath: path))
        }
    }

    /// Root reads any file, so the real case only runs for other users; the mapping is checked
    /// for everyone below.
    @Test("a file without read permission is permissionDenied", .enabled(if: getuid() != 0, "root may read any file"))
    func unreadableFile() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("secret.png")
        try fixture(Fixtures.pngRGB8).write(to: url)
        try #require(chmod(url.path, 0) == 0)
        expectTasksError(.permissionDeniedError, containing: ["\(url.path): ", "Permission denied"]) {
            _ = try ImageDecoder.decode(contentsOf: url)
        }
        // A folder that may not be searched hides its files the same way.
        try #require(chmod(url.path, 0o644) == 0 && chmod(directory.path, 0) == 0)
        defer { chmod(directory.path, 0o755) }
        expectTasksError(.permissionDeniedError, containing: ["\(url.path): "]) {
            _ = try ImageDecoder.decode(contentsOf: url)
        }
    }

    @Test("a file is decoded from one read, with the same result as its bytes")
    func fileEqualsData() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("exif.jpg")
        let data = ImageBytes.settingOrientation(fixture(Fixtures.jpegExif), to: 6)
        try data.write(to: url)
        let fromFile = try ImageDecoder.decode(contentsOf: url), fromData = try ImageDecoder.decode(data, source: "data")
        #expect(fromFile.pixels.bytes == fromData.pixels.bytes)
        #expect(fromFile.exifOrientation == .right && fromData.exifOrientation == .right)
    }

    @Test("a file whose name is not UTF-8 is read through its bytes; messages escape the bad bytes")
    func nonUTF8Name() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = FileSystemPath(directory.path).appending(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(!path.isValidUTF8)
        #expect(path.description == directory.path + "/caf\\xE9.jpg")
        let data = fixture(Fixtures.jpegExif)
        let written = path.withCString { name in
            let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            defer { close(descriptor) }
            return data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
        try #require(written == data.count)
        #expect(try ImageDecoder.decode(file: path).pixels.bytes == ImageDecoder.decode(data, source: "data").pixels.bytes)
        let missing = path.appending(Array("x".utf8))
        expectTasksError(.notFoundError, containing: ["caf\\xE9.jpg/x: The image file was not found"]) {
            _ = try ImageDecoder.decode(file: missing)
        }
    }
}
