import Foundation
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// Malformed inputs must throw a `TasksError`, never trap or hang.
@Suite struct MalformedModelTests {
    @Test(
        "tiny or garbage buffers with the TFL3 identifier",
        arguments: [
            ("root offset past the end", [0xFF, 0xFF, 0xFF, 0x7F, 0x54, 0x46, 0x4C, 0x33]),
            ("root offset 0", [0x00, 0x00, 0x00, 0x00, 0x54, 0x46, 0x4C, 0x33]),
            ("vtable before the buffer", [0x08, 0, 0, 0, 0x54, 0x46, 0x4C, 0x33, 0x00, 0x01, 0, 0]),
            ("vtable of odd size", [0x08, 0, 0, 0, 0x54, 0x46, 0x4C, 0x33, 0x05, 0x00, 0x04, 0x00, 0x04, 0, 0, 0]),
        ])
    func invalidModel(name: String, bytes: [UInt8]) {
        expectTasksError(.invalidArgumentError, message: "The model is not a valid TFLite model: ", prefix: true) {
            _ = try TFLiteModelFile(bytes: Data(bytes))
        }
    }

    /// What is not a model at all is named by its identifier, and by its format when known.
    @Test(
        "files that are not models",
        arguments: [
            ("empty", [UInt8](), "none (the file has 0 bytes)", ""),
            ("3 bytes", [0x1C, 0x00, 0x00], "none (the file has 3 bytes)", ""),
            ("7 bytes", [0x08, 0x00, 0x00, 0x00, 0x54, 0x46, 0x4C], "54 46 4c", ""),
            ("all 0xFF", [UInt8](repeating: 0xFF, count: 64), "ff ff ff ff", ""),
            (
                "JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46], "00 10 4a 46",
                " It looks like a JPEG image."
            ),
            (
                "zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00], "14 00 00 00",
                " It looks like a zip archive (an AutoML export or a MediaPipe .task bundle: give its model.tflite)."
            ),
        ])
    func notAModel(name: String, bytes: [UInt8], identifier: String, guess: String) {
        expectTasksError(
            .invalidArgumentError,
            message: "The file is not a TFLite model: its file identifier (bytes 4-7) is \(identifier), not \"TFL3\".\(guess)"
        ) {
            _ = try TFLiteModelFile(bytes: Data(bytes))
        }
    }

    @Test func randomGarbage() {
        var generator = SplitMix64(seed: 42)
        var threw = 0
        for length in [8, 16, 100, 1000, 10_000] {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if (try? TFLiteModelFile(bytes: Data(bytes))) == nil { threw += 1 }
            }
        }
        #expect(threw == 250)
    }

    @Test(
        "metadata: tiny or garbage buffers",
        arguments: [
            ("empty", [UInt8]()),
            ("3 bytes", [0x4D, 0x30, 0x30]),
            ("identifier only", [0x00, 0x00, 0x00, 0x00, 0x4D, 0x30, 0x30, 0x31]),
            ("root past the end", [0x10, 0x00, 0x00, 0x00, 0x4D, 0x30, 0x30, 0x31]),
        ])
    func invalidMetadata(name: String, bytes: [UInt8]) {
        let error = #expect(throws: TasksError.self) { _ = try ModelMetadata(bytes: Data(bytes)) }
        #expect(error?.code == .invalidArgumentError)
    }

    @Test func shortMetadataNamesItsLength() {
        expectTasksError(
            .invalidArgumentError,
            message: "Invalid metadata schema version: expected M001, got M0 (the metadata buffer has only 6 bytes)"
        ) {
            _ = try ModelMetadata(bytes: Data([0, 0, 0, 0, 0x4D, 0x30]))
        }
    }
}

@Suite("Damaged shared models", .enabled(if: TestData.isAvailable, "\(TestData.missingReason)"))
struct DamagedModelTests {
    static let modelName = "mobilenet_v1_0.25_224_quant.tflite"
    /// Where the zip starts in the model (Python's `zipfile`: first header_offset).
    static let zipStart = 498_184

    @Test(.hangGuard) func truncations() throws {
        // The bound on the work: CPU time, which a busy machine does not stretch.
        let budget = CPUTimeBudget(.seconds(120))
        defer { budget.expectWithin() }
        let bytes = try Data(contentsOf: TestData.model(Self.modelName))
        #expect(bytes.count == 508_786)
        let metadata = try #require(MetadataLocation.find(in: bytes))
        for length in [0, 1, 3, 4, 7, 8, 28, 100, 1000, metadata.start + metadata.count / 2, bytes.count / 2] {
            let error = #expect(throws: TasksError.self, "length \(length)") {
                _ = try TFLiteModelFile(bytes: bytes.prefix(length))
            }
            #expect(error?.code == .invalidArgumentError)
            // Cut before its identifier is whole, the file is no longer recognizably a model.
            let expected = length < 8 ? "The file is not a TFLite model: " : "The model is not a valid TFLite model: "
            #expect(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "")")
        }
        // Cutting the zip leaves a valid model whose files are missing. Cutting the FlatBuffer's
        // last byte does too: it belongs to a table this reader does not read (an operator
        // code); the engine verifies the whole FlatBuffer when it loads the model.
        for length in [
            Self.zipStart - 1, Self.zipStart, Self.zipStart + 10, Self.zipStart + 5000, bytes.count - 22, bytes.count - 1,
        ] {
            let model = try TFLiteModelFile(bytes: bytes.prefix(length))
            #expect(model.metadata != nil)
            #expect(model.associatedFiles.names.isEmpty)
            expectTasksError(
                .notFoundError,
                message:
                    "No associated file with name: labels.txt (the model has no zip of associated files, or it is truncated or corrupt",
                prefix: true
            ) { _ = try model.associatedFiles.contents(of: "labels.txt") }
        }
    }

    /// Every length from 0 to 2,000 bytes, and every length that cuts the metadata buffer.
    @Test(.hangGuard) func everyShortTruncation() throws {
        // The bound on the work: CPU time, which a busy machine does not stretch.
        let budget = CPUTimeBudget(.seconds(120))
        defer { budget.expectWithin() }
        let bytes = try Data(contentsOf: TestData.model(Self.modelName))
        let metadata = try #require(MetadataLocation.find(in: bytes))
        for length in Array(0...2000) + Array(metadata.start..<(metadata.start + metadata.count)) {
            #expect(throws: TasksError.self) { _ = try TFLiteModelFile(bytes: bytes.prefix(length)) }
        }
    }

    /// Flipping bytes in the FlatBuffer's structure (its first 4 KB, where the tables and
    /// vtables are, and the metadata buffer): each parse throws or succeeds.
    @Test(.hangGuard) func flippedModelBytes() throws {
        // The bound on the work: CPU time, which a busy machine does not stretch.
        let budget = CPUTimeBudget(.seconds(120))
        defer { budget.expectWithin() }
        let original = try Data(contentsOf: TestData.model(Self.modelName))
        let metadata = try #require(MetadataLocation.find(in: original))
        var generator = SplitMix64(seed: 7)
        var positions = Array(0..<1000)
        positions += (0..<1000).map { _ in Int.random(in: 1000..<4096, using: &generator) }
        positions += (0..<1000).map { _ in
            Int.random(in: (metadata.start - 16)..<(metadata.start + metadata.count), using: &generator)
        }
        var outcomes = (parsed: 0, threw: 0)
        for position in positions {
            var bytes = original
            bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
            do {
                let model = try TFLiteModelFile(bytes: bytes)
                _ = try? model.associatedFiles.contents(of: "labels.txt")
                outcomes.parsed += 1
            } catch {
                outcomes.threw += 1
            }
        }
        #expect(outcomes.parsed + outcomes.threw == 3000)
        // The structure is dense at the start: many flips there are caught.
        #expect(outcomes.threw > 100)
        #expect(outcomes.parsed > 100)
    }

    /// Every byte of the metadata buffer, with several patterns, parsed on its own.
    @Test(.hangGuard) func flippedMetadataBytes() throws {
        // The bound on the work: CPU time, which a busy machine does not stretch.
        let budget = CPUTimeBudget(.seconds(120))
        defer { budget.expectWithin() }
        let original = try #require(MetadataLocation.find(in: try Data(contentsOf: TestData.model(Self.modelName)))).bytes
        var threw = 0
        for position in original.indices {
            for pattern: UInt8 in [0x01, 0x80, 0xFF] {
                var bytes = original
                bytes[position] ^= pattern
                if (try? ModelMetadata(bytes: bytes)) == nil { threw += 1 }
            }
            for value: UInt8 in [0x00, 0x7F] where original[position] != value {
                var bytes = original
                bytes[position] = value
                if (try? ModelMetadata(bytes: bytes)) == nil { threw += 1 }
            }
        }
        #expect(threw > 0)
    }

    @Test func wrongMetadataIdentifierInModel() throws {
        var bytes = try Data(contentsOf: TestData.model(Self.modelName))
        let identifier = try #require(bytes.range(of: Data("M001".utf8)))
        bytes.replaceSubrange(identifier, with: Data("M009".utf8))
        expectTasksError(.invalidArgumentError, message: "Invalid metadata schema version: expected M001, got M009") {
            _ = try TFLiteModelFile(bytes: bytes)
        }
    }
}
