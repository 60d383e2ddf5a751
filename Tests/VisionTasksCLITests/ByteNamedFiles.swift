import Foundation
import Glibc

/// Files and folders made and removed through byte paths and descriptors, as any program may:
/// names that are not UTF-8, and trees deeper than PATH_MAX, which Foundation (going through
/// `String` paths) can neither make nor remove.
enum ByteNamedFiles {
    /// Writes `contents` to a new file called `name` inside `folder`; returns its path's bytes.
    /// The corresponding C functions are `open`, `write` and `close`.
    @discardableResult
    static func write(_ contents: Data, named name: [UInt8], in folder: [UInt8]) throws -> [UInt8] {
        let path = folder + [UInt8(ascii: "/")] + name
        let descriptor = withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try write(contents, to: descriptor)
        return path
    }

    /// Makes a folder called `name` inside `folder`; returns its path's bytes.
    @discardableResult
    static func makeFolder(named name: [UInt8], in folder: [UInt8]) throws -> [UInt8] {
        let path = folder + [UInt8(ascii: "/")] + name
        guard withCString(path, { mkdir($0, 0o755) }) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path
    }

    /// Makes `depth` nested folders called `name` under `folder`, one `mkdirat`/`openat` at a
    /// time (so the full path may exceed PATH_MAX), and writes `contents` to a file called
    /// `fileName` in the deepest one. Returns the file's path bytes (too long to open by path).
    @discardableResult
    static func writeNested(
        _ contents: Data, named fileName: String, depth: Int, folderName name: String,
        in folder: String
    ) throws -> [UInt8] {
        var descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        for _ in 0..<depth {
            guard mkdirat(descriptor, name, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard child >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            close(descriptor)
            descriptor = child
        }
        let file = openat(descriptor, fileName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(file) }
        try write(contents, to: file)
        return Array((folder + String(repeating: "/" + name, count: depth) + "/" + fileName).utf8)
    }

    /// Removes `folder` and everything under it, however deep and whatever the names (no
    /// symbolic link is followed). Errors are ignored: this is cleanup.
    static func removeTree(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        removeContents(of: descriptor)
        close(descriptor)
        rmdir(folder)
    }

    private static func removeContents(of descriptor: Int32) {
        let copy = dup(descriptor)
        guard copy >= 0, let directory = fdopendir(copy) else { return }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            var field = entry.pointee.d_name
            let name = withUnsafeBytes(of: &field) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
        }
        closedir(directory)
        for name in names {
            withCString(name) { name in
                guard unlinkat(descriptor, name, 0) != 0 else { return }
                let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { return }
                removeContents(of: child)
                close(child)
                unlinkat(descriptor, name, AT_REMOVEDIR)
            }
        }
    }

    private static func write(_ contents: Data, to descriptor: Int32) throws {
        let written = contents.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == contents.count else { throw POSIXError(.EIO) }
    }

    static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }
}
