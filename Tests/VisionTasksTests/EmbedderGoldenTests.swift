import Foundation
import TestSupport
import Testing

@testable import VisionTasks

extension EmbedderReference.Case {
    /// The RectF as the CGRect our API takes (width = right − left).
    var region: CGRect {
        guard let roi else { return .zero }
        return CGRect(x: roi[0], y: roi[1], width: roi[2] - roi[0], height: roi[3] - roi[1])
    }

    /// MediaPipe iOS's orientation for a rotation: Right = 90° clockwise, Down = 180°, Left = 270°.
    var orientation: ImageOrientation {
        [ImageOrientation.up, .right, .down, .left][((rotationDegrees / 90) % 4 + 4) % 4]
    }

    /// The same input as `other`, whatever the options.
    func hasInput(of other: Self) -> Bool {
        (model, image, roi, rotationDegrees) == (other.model, other.image, other.roi, other.rotationDegrees)
    }

    var description: String {
        "\(model) \(image) roi \(roi ?? []) rotation \(rotationDegrees) l2Normalize \(l2Normalize) quantize \(quantize)"
    }
}

/// An embedder for a shared model with the given options.
func embedder(
    _ model: String, l2Normalize: Bool = false, quantize: Bool = false,
    configure: (ImageEmbedderOptions) -> Void = { _ in }
) throws -> ImageEmbedder {
    let options = ImageEmbedderOptions()
    options.baseOptions.modelAssetPath = TestData.model(model).path
    options.l2Normalize = l2Normalize
    options.quantize = quantize
    configure(options)
    return try ImageEmbedder(options: options)
}

/// Our embeddings against MediaPipe's on the same pixels: float values within 1e-5, quantized
/// values equal (off by one only where our float and MediaPipe's lie on either side of a
/// rounding tie), cosine similarities within 1e-6.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct EmbedderGoldenTests {
    static let reference = try? EmbedderReference.load()
    static let models = [
        "mobilenet_v2_035_96_embedder_with_metadata.tflite", "mobilenet_v1_1.0_224_quant_embedding_extractor.tflite",
    ]
    static let floatTolerance: Float = 1e-5
    static let similarityTolerance = 1e-6

    @Test func referenceLoads() throws {
        let reference = try #require(Self.reference)
        #expect(reference.mediapipeVersion == "1.2.3")
        #expect(Set(reference.embeddings.map(\.model)) == Set(Self.models))
        #expect(reference.embeddings.count == 64)
        #expect(reference.cosineSimilarities.count == 32)
        #expect(reference.embeddings.allSatisfy { ($0.floatEmbedding == nil) == $0.quantize })
    }

    /// Every image, region and rotation with every combination of options.
    @Test(arguments: models)
    func embeddingsMatchMediaPipe(model: String) throws {
        let reference = try #require(Self.reference)
        let cases = reference.embeddings.filter { $0.model == model }
        for l2Normalize in [false, true] {
            let floatEmbedder = try embedder(model, l2Normalize: l2Normalize)
            let quantizingEmbedder = try embedder(model, l2Normalize: l2Normalize, quantize: true)
            for item in cases where item.l2Normalize == l2Normalize {
                let image = try MPImage(contentsOf: TestData.image(item.image), orientation: item.orientation)
                let floats = try floatEmbedder.embed(image: image, regionOfInterest: item.region).embeddingResult.embeddings
                try #require(floats.count == 1, "\(item.description): one head")
                #expect(floats[0].headIndex == item.headIndex, "\(item.description)")
                #expect(floats[0].headName == item.headName, "\(item.description)")
                let ours = try #require(floats[0].floatEmbedding)
                if let expected = item.floatEmbedding {
                    expectClose(ours, expected, item.description)
                    continue
                }
                let quantized = try quantizingEmbedder.embed(image: image, regionOfInterest: item.region).embeddingResult
                    .embeddings[0]
                #expect(quantized.floatEmbedding == nil)
                #expect(quantized.headName == item.headName, "\(item.description)")
                // MediaPipe's floats for the same input and normalization: what it quantized.
                let theirs = try #require(
                    cases.first { $0.hasInput(of: item) && $0.l2Normalize == l2Normalize && !$0.quantize }?.floatEmbedding)
                expectQuantizedEqual(
                    try #require(quantized.quantizedEmbedding), try #require(item.quantizedEmbedding),
                    ourFloats: ours, theirFloats: theirs, item.description)
            }
        }
    }

    /// Cosine similarities of our embeddings against MediaPipe's of its own, and our function on
    /// MediaPipe's embeddings against MediaPipe's function.
    @Test(arguments: models)
    func cosineSimilaritiesMatchMediaPipe(model: String) throws {
        let reference = try #require(Self.reference)
        for similarity in reference.cosineSimilarities where similarity.model == model {
            let context =
                "\(model) \(similarity.first) · \(similarity.second) l2 \(similarity.l2Normalize) q \(similarity.quantize)"
            let task = try embedder(model, l2Normalize: similarity.l2Normalize, quantize: similarity.quantize)
            func ours(_ image: String) throws -> Embedding {
                try task.embed(image: try MPImage(contentsOf: TestData.image(image))).embeddingResult.embeddings[0]
            }
            let value = try ImageEmbedder.cosineSimilarity(
                embedding1: try ours(similarity.first), embedding2: try ours(similarity.second))
            #expect(abs(value - similarity.value) <= Self.similarityTolerance, "\(context): \(value) vs \(similarity.value)")

            func theirs(_ image: String) throws -> Embedding {
                let item = try #require(
                    reference.plain(
                        model: model, image: image, l2Normalize: similarity.l2Normalize, quantize: similarity.quantize))
                return Embedding(
                    floatEmbedding: item.floatEmbedding, quantizedEmbedding: item.quantizedEmbedding, headIndex: 0,
                    headName: item.headName)
            }
            let onTheirs = try ImageEmbedder.cosineSimilarity(
                embedding1: try theirs(similarity.first), embedding2: try theirs(similarity.second))
            #expect(abs(onTheirs - similarity.value) <= 1e-12, "\(context): \(onTheirs) vs \(similarity.value)")
        }
    }

    /// Expects every element within `floatTolerance` (one issue, at the largest difference).
    private func expectClose(
        _ ours: [Float], _ expected: [Float], _ context: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard ours.count == expected.count else {
            Issue.record("\(context): \(ours.count) values, MediaPipe \(expected.count)", sourceLocation: sourceLocation)
            return
        }
        let differences = zip(ours, expected).map { abs($0 - $1) }
        let worst = differences.indices.max { differences[$0] < differences[$1] } ?? 0
        #expect(
            differences.isEmpty || differences[worst] <= Self.floatTolerance,
            "\(context): element \(worst) is \(ours.isEmpty ? 0 : ours[worst]), MediaPipe \(expected.isEmpty ? 0 : expected[worst])",
            sourceLocation: sourceLocation)
    }

    /// Expects the quantized values equal, except by one where `x · 128` of our float and of
    /// MediaPipe's lie on either side of (or on) the same rounding tie `k + 0.5`.
    private func expectQuantizedEqual(
        _ ours: [Int8], _ expected: [Int8], ourFloats: [Float], theirFloats: [Float], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard ours.count == expected.count, ours.count == ourFloats.count, ours.count == theirFloats.count else {
            Issue.record(
                "\(context): sizes \(ours.count), \(expected.count), \(theirFloats.count)", sourceLocation: sourceLocation)
            return
        }
        for index in ours.indices where ours[index] != expected[index] {
            let (mine, theirs) = (ourFloats[index] * 128, theirFloats[index] * 128)
            let tie = (min(mine, theirs) - 0.5).rounded(.up) + 0.5  // the first tie at or above the lower value
            let straddles = abs(Int(ours[index]) - Int(expected[index])) == 1 && tie <= max(mine, theirs)
            #expect(
                straddles,
                "\(context): element \(index) is \(ours[index]), MediaPipe \(expected[index]) (floats × 128: \(mine), \(theirs))",
                sourceLocation: sourceLocation)
        }
    }
}
