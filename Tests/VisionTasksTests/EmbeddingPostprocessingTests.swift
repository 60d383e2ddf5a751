import Foundation
import TestSupport
import Testing

@testable import TaskRuntime
@testable import VisionTasks

/// MediaPipe's scalar quantization and L2 normalization (`TensorsToEmbeddingsCalculator`).
struct EmbeddingPostprocessingTests {
    /// `round(x · 128)` with C's `roundf` (halves away from zero), clamped to -128...127.
    @Test(
        arguments: [
            (0, 0), (1.0 / 128, 1), (-1.0 / 128, -1),
            (0.5 / 128, 1), (-0.5 / 128, -1), (1.5 / 128, 2), (2.5 / 128, 3), (-2.5 / 128, -3),  // ties
            (0.49 / 128, 0), (126.5 / 128, 127), (-127.5 / 128, -128),
            (1, 127), (-1, -128), (5, 127), (-5, -128), (1e30, 127), (-1e30, -128),  // clamped
            (Float.infinity, 127), (-Float.infinity, -128), (Float.nan, 0),  // saturated, as on ARM
        ] as [(Float, Int8)])
    func quantization(value: Float, expected: Int8) {
        #expect(EmbeddingHead.quantized(value) == expected)
    }

    @Test func zeroVectorKeepsItsValues() {
        let zeros: [Float] = [0, 0, 0]
        #expect(zeros.withUnsafeBufferPointer(EmbeddingHead.inverseL2Norm) == 1)
        let values: [Float] = [3, 4]
        #expect(values.withUnsafeBufferPointer(EmbeddingHead.inverseL2Norm) == 0.2)
    }
}

/// With `l2Normalize`, real embeddings have unit norm, in floats and (within quantization) in bytes.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct L2NormalizationTests {
    @Test(arguments: EmbedderGoldenTests.models)
    func l2NormalizedEmbeddingsHaveUnitNorm(model: String) throws {
        let normalizing = try embedder(model, l2Normalize: true)
        let quantizing = try embedder(model, l2Normalize: true, quantize: true)
        let raw = try embedder(model)
        for name in ["burger.jpg", "sparrow.png", "cat.jpg"] {
            let image = try MPImage(contentsOf: TestData.image(name))
            let values = try #require(normalizing.embed(image: image).embeddingResult.embeddings[0].floatEmbedding)
            let norm = values.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
            #expect(abs(norm - 1) <= 1e-6, "\(model) \(name): norm \(norm)")
            let rawValues = try #require(raw.embed(image: image).embeddingResult.embeddings[0].floatEmbedding)
            let rawNorm = rawValues.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot()
            #expect(abs(rawNorm - 1) > 0.1, "\(model) \(name): the model's own output is not unit-norm (\(rawNorm))")
            // Each byte is within half a step of 128 x: the norm of the bytes / 128 is close to 1.
            let bytes = try #require(quantizing.embed(image: image).embeddingResult.embeddings[0].quantizedEmbedding)
            let byteNorm = bytes.reduce(0.0) { $0 + Double($1) * Double($1) }.squareRoot() / 128
            #expect(abs(byteNorm - 1) <= Double(bytes.count).squareRoot() * 0.5 / 128, "\(model) \(name): \(byteNorm)")
        }
    }
}
