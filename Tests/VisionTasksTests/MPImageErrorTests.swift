import Foundation
import Glibc
import TestSupport
import Testing
import VisionTasks

/// How `MPImage`'s initializers refuse bad input: a `TasksError` with the right code and a
/// message naming the file or value, never a trap, a hang or another picture.
@Suite("MPImage errors", .hangGuard)
struct MPImageErrorTests {
    /// One way of making an image that must fail.
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let code: TasksErrorCode
        let fragments: [String]
        let make: @Sendable () throws -> MPImage
        var testDescription: String { id }
    }

    static let side = MPImage.maximumSideLength

    /// Raw buffers: sizes whose row or plane sizes overflow `Int` (these trapped before any
    /// check once) and sizes over the decoders' limits, for every format, with rows unpadded.
    static let rawCases: [Case] = [PixelFormat.rgba8, .bgra8, .rgb8, .gray8, .nv12, .nv21, .i420, .yuyv].flatMap { format in
        [
            Case(
                id: "\(format) Int.max wide", code: .invalidArgumentError,
                fragments: ["Invalid image size \(Int.max)x1", "limited to 67108864 pixels"]
            ) {
                try MPImage(pixels: Data(count: 16), width: Int.max, height: 1, format: format)
            },
            Case(
                id: "\(format) Int.max / 2 + 1 wide", code: .invalidArgumentError,
                fragments: ["Invalid image size \(Int.max / 2 + 1)x2", "limited to 67108864 pixels"]
            ) {
                try MPImage(pixels: Data(count: 16), width: Int.max / 2 + 1, height: 2, format: format)
            },
            Case(
                id: "\(format) Int.max tall", code: .invalidArgumentError,
                fragments: ["Invalid image size 1x\(Int.max)", "limited to 67108864 pixels"]
            ) {
                try MPImage(pixels: Data(count: 16), width: 1, height: Int.max, format: format)
            },
            Case(
                id: "\(format) one past the side limit", code: .invalidArgumentError,
                fragments: ["Invalid image size \(side + 1)x1", "limited to 67108864 pixels"]
            ) {
                try MPImage(pixels: Data(count: 16), width: side + 1, height: 1, format: format)
            },
            Case(
                id: "\(format) one row past the pixel limit", code: .invalidArgumentError,
                fragments: ["Invalid image size 10000x10001", "more than the limit of 100000000 pixels"]
            ) {
                try MPImage(pixels: Data(count: 16), width: 10_000, height: 10_001, format: format)
            },
            Case(
                id: "\(format) planes one past the side limit", code: .invalidArgumentError,
                fragments: ["Invalid image size 1x\(side + 1)", "limited to 67108864 pixels"]
            ) {
                try MPImage(planes: [PixelPlane(bytes: Data(), bytesPerRow: 1)], width: 1, height: side + 1, format: format)
            },
        ]
    }

    @Test("raw buffers with overflowing or oversized dimensions", arguments: rawCases)
    func rawBuffers(_ item: Case) {
        expect(item)
    }

    /// Files and URLs that are not images to read.
    static let fileCases: [Case] = [
        Case(
            id: "http URL", code: .invalidArgumentError,
            fragments: ["http://example.com/burger.jpg: Failed to read image: only file URLs are supported"]
        ) {
            try MPImage(contentsOf: URL(string: "http://example.com/burger.jpg")!)
        },
        Case(id: "/dev/zero", code: .invalidArgumentError, fragments: ["/dev/zero: Expected a regular image file, but this is"]) {
            try MPImage(contentsOfFile: "/dev/zero")
        },
        Case(
            id: "/dev/urandom", code: .invalidArgumentError,
            fragments: ["/dev/urandom: Expected a regular image file, but this is"]
        ) {
            try MPImage(contentsOf: URL(fileURLWithPath: "/dev/urandom"))
        },
        Case(id: "missing file", code: .notFoundError, fragments: ["/nonexistent/burger.jpg: The image file was not found"]) {
            try MPImage(contentsOfFile: "/nonexistent/burger.jpg")
        },
    ]

    @Test("files and URLs that cannot be read", arguments: fileCases)
    func files(_ item: Case) {
        expect(item)
    }

    @Test("a FIFO is refused without blocking")
    func fifo() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("camera.jpg").path
        try #require(mkfifo(path, 0o600) == 0)
        expect(
            Case(
                id: "FIFO", code: .invalidArgumentError,
                fragments: ["\(path): Expected a regular image file, but this is", "FIFO"]
            ) {
                try MPImage(contentsOfFile: path)
            })
    }

    @Test("the limits are published")
    func limits() {
        #expect(MPImage.maximumPixelCount == 100_000_000)
        #expect(MPImage.maximumSideLength == 1 << 26)
        #expect(MPImage.maximumFileSize == 256 << 20)
    }

    /// Checks that `item` throws its code and message fragments.
    func expect(_ item: Case, sourceLocation: SourceLocation = #_sourceLocation) {
        expectTasksError(item.code, containing: item.fragments, context: item.id, sourceLocation: sourceLocation) {
            try item.make()
        }
    }
}

/// Paths are opened as given: no current-directory expansion in messages, no trailing-slash
/// leniency, and an empty path says so.
@Suite struct MPImagePathTests {
    @Test func emptyPathSaysSo() {
        let error = #expect(throws: TasksError.self) { try MPImage(contentsOfFile: "") }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.message == "The image file path is empty.")
    }

    @Test func relativePathIsNamedAsGiven() {
        let error = #expect(throws: TasksError.self) { try MPImage(contentsOfFile: "no/such/photo.jpg") }
        #expect(error?.subject == .file("no/such/photo.jpg"))
    }

    @Test(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
    func trailingSlashAfterAFileIsNotAFile() {
        let error = #expect(throws: TasksError.self) { try MPImage(contentsOfFile: TestData.image("burger.jpg").path + "/") }
        #expect(error?.code == .notFoundError)
    }
}
