import Foundation
import ImageLabeling
import TestSupport
import Testing

/// ML Kit's labeler reads one output: a model with two heads is refused, naming them, rather
/// than silently labeled from the first.
@Suite struct MultiHeadModelTests {
    @Test func twoHeadsAreRefusedNamingThem() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("two_heads.tflite").path
        try Data(ReshapeModel.bytes(outputShapes: [[1, 48], [1, 48]])).write(to: URL(fileURLWithPath: path))
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: path))
        let error = #expect(throws: TasksError.self) { try ImageLabeler(options: options) }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.subject == .file(path))
        #expect(
            error?.reason == "ML Kit's image labeler uses one output (head), but this model has 2 (output 0, output 1); "
                + "use VisionTasks' ImageClassifier, which returns every head.")
    }

    @Test func oneHeadIsLabeled() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("one_head.tflite").path
        try Data(ReshapeModel.bytes(outputShapes: [[1, 48]])).write(to: URL(fileURLWithPath: path))
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: path))
        options.maxResultCount = 48
        // A 4x4 RGB picture, the model's input size: score i is byte i / 256.
        let pixels = Data((0..<48).map { UInt8($0 * 5) })
        let labels = try ImageLabeler(options: options).results(
            in: VisionImage(pixels: pixels, width: 4, height: 4, format: .rgb8))
        #expect(labels.count == 48)  // no metadata threshold: 0, and every score is >= 0
        #expect(labels.first == ImageLabel(text: "", confidence: Float(47 * 5) / 256, index: 47))
    }
}

/// `VisionImage(pixels:)` follows `MPImage`'s rule: without `bytesPerRow`, exactly the packed pixels.
@Suite struct VisionImageBufferLengthTests {
    @Test func rgbaBytesDescribedAsRGB8AreRefused() {
        let error = #expect(throws: TasksError.self) {
            try VisionImage(pixels: Data(count: 4 * 4 * 4), width: 4, height: 4, format: .rgb8)
        }
        #expect(
            error?.message == "Pixel buffer has 64 bytes, but 4x4 rgb8 without bytesPerRow is exactly 48 bytes; "
                + "give bytesPerRow for padded rows, or check the format.")
    }
}
