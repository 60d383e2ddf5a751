import Foundation
import Glibc
import TestSupport
import Testing

/// `--model` naming what is not a regular file of a sensible size: refused without reading
/// (nothing blocks on a FIFO or device), with a message that says what it is; exit status 1.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelFileKindTests {
    struct ModelCase: Sendable, CustomTestStringConvertible {
        let id: String
        /// What the message must say.
        let fragments: [String]
        /// Makes the model path inside a temporary folder.
        let make: @Sendable (URL) throws -> String
        var testDescription: String { id }
    }

    static let cases: [ModelCase] = [
        ModelCase(id: "a FIFO", fragments: ["is a FIFO", "it was not opened"]) { folder in
            let path = folder.appendingPathComponent("model.tflite").path
            guard mkfifo(path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return path
        },
        ModelCase(id: "a directory", fragments: ["is a directory"]) { folder in
            let url = folder.appendingPathComponent("model.tflite")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url.path
        },
        // `truncate -s 3G`: sparse, so it takes no disk space.
        ModelCase(id: "a 3 GiB file", fragments: ["too large", "3221225472 bytes", "(2 GiB)"]) { folder in
            let url = folder.appendingPathComponent("huge.tflite")
            try Data().write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.truncate(atOffset: 3 << 30)
            return url.path
        },
        ModelCase(id: "a character device", fragments: ["is a character device", "it was not opened"]) { _ in "/dev/null" },
    ]

    @Test(arguments: cases)
    func modelThatIsNotARegularFileIsRefused(_ model: ModelCase) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try model.make(folder)
        for command in [["classify"], ["label"], ["benchmark"]] {
            let run = try await VisionTasksTool.run(command + ["--model", path, Fixture.burger])
            #expect(run.status == 1, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            try #require(run.diagnostics.count == 1, "\(run)")
            let message = run.diagnostics[0]
            #expect(message.hasPrefix("error: INVALID_ARGUMENT: \(path): "), "names the model: \(message)")
            for fragment in model.fragments {
                #expect(message.contains(fragment), "\(message)")
            }
        }
    }
}
