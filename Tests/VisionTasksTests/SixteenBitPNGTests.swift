import Foundation
import Imaging
import TestSupport
import Testing
import VisionTasks

/// A 16-bit PNG whose low bytes are not zero classifies as MediaPipe reads it: the high byte of
/// each sample (stb_image, like Pillow), not a rounded 8-bit value. The expected scores are
/// MediaPipe 1.2.3's on the file `picture()` writes (`Tests/Reference/make_png16_reference.py`;
/// write the file with `SVT_WRITE_PNG16=FILE swift test --filter SixteenBitPNGTests`).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct SixteenBitPNGTests {
    struct Reference: Decodable {
        /// The FNV-1a 64 (hexadecimal) of the PNG MediaPipe read.
        let pngFNV1a64: String
        /// Model file name -> score by category index (top 10).
        let scores: [String: [Int: Float]]
    }

    static let reference: Reference? = {
        let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/mediapipe_png16_outputs.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Reference.self, from: $0) }
    }()

    /// burger-224.png's pixels as high bytes, with seeded random low bytes, as 16-bit RGB.
    static func picture() throws -> [UInt8] {
        let pixels = try ImageDecoder.decode(contentsOf: TestData.image("burger-224.png")).pixels
        var generator = SplitMix64(seed: 16)
        let rows = (0..<pixels.height).map { y in
            (0..<pixels.width).flatMap { x -> [UInt8] in
                let pixel = pixels.rgba(x: x, y: y)
                return [pixel.red, pixel.green, pixel.blue].flatMap { [$0, UInt8.random(in: 0...255, using: &generator)] }
            }
        }
        return PNGWriter.png(width: pixels.width, height: pixels.height, bitDepth: 16, colorType: 2, rows: rows)
    }

    @Test(arguments: ["mobilenet_v1_0.25_224_1_metadata_1.tflite", "mobilenet_v1_0.25_224_quant.tflite"])
    func matchesMediaPipe(model: String) throws {
        let reference = try #require(Self.reference, "Tests/Reference/mediapipe_png16_outputs.json")
        let png = try Self.picture()
        #expect(String(fnv1a64(png), radix: 16) == reference.pngFNV1a64, "the picture is the one MediaPipe read")
        let expected = try #require(reference.scores[model])
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(model).path
        options.maxResults = 10
        let result = try ImageClassifier(options: options).classify(image: MPImage(data: Data(png)))
        let categories = result.classificationResult.classifications[0].categories
        // Categories tied at the cut-off score may be any of the tied ones (MediaPipe's sort leaves ties unordered).
        let cutOff = try #require(expected.values.min())
        let above = { (scores: [(Int, Float)]) in Set(scores.filter { $0.1 > cutOff + 1e-6 }.map(\.0)) }
        #expect(above(categories.map { ($0.index, $0.score) }) == above(expected.map { ($0.key, $0.value) }))
        for category in categories where category.score > cutOff + 1e-6 {
            let score = try #require(expected[category.index])
            #expect(abs(category.score - score) <= 1e-6, "category \(category.index): \(category.score) vs \(score)")
        }
    }

    /// Writes the picture for the reference script when `SVT_WRITE_PNG16` names a file.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["SVT_WRITE_PNG16"] != nil,
            "opt in: SVT_WRITE_PNG16=FILE writes the picture for Tests/Reference/make_png16_reference.py"))
    func writePicture() throws {
        let path = ProcessInfo.processInfo.environment["SVT_WRITE_PNG16"]!
        try Data(Self.picture()).write(to: URL(fileURLWithPath: path))
    }
}
