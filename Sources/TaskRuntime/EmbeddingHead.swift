import LiteRT
import TFLiteMetadata
import TasksCommon

/// What the embedder knows about one output head, resolved once at creation: how to read its
/// values, and its name.
package struct EmbeddingHead: Sendable {
    /// The head (output tensor) index.
    package let index: Int
    /// The output tensor metadata's name; nil when the model's metadata names no output, `""`
    /// for an unnamed output of a model that names another (as MediaPipe reports them).
    package let name: String?
    /// The number of values: the output's element count, whatever its shape.
    package let dimension: Int
    /// The output's quantization, or nil for FLOAT32 values.
    let quantization: Quantization?

    /// The heads of a model, checked as MediaPipe's embedding postprocessing graph checks them
    /// (`ConfigureEmbeddingPostprocessingGraph`): every output FLOAT32 or UINT8, all quantized or
    /// none, and as many output tensor metadata as outputs when there are any. Outputs may have
    /// any shape; their elements are the embedding.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages.
    static func heads(outputs: [TensorDescription], metadata: SubGraphMetadata?) throws(TasksError) -> [EmbeddingHead] {
        guard !outputs.isEmpty else {
            throw .invalidArgument("The model has no output tensor; an image embedder needs at least one.")
        }
        for (index, tensor) in outputs.enumerated() {
            guard tensor.elementType == .float32 || tensor.elementType == .uint8 else {
                throw .invalidArgument(
                    "Expected output tensor at index \(index) to have type UINT8 or FLOAT32, found \(tensor.elementType) instead."
                )
            }
            guard tensor.shape.allSatisfy({ $0 >= 0 }) else {
                throw .invalidArgument("Output tensor \(index) \(tensor) has a dynamic shape; an embedding needs a fixed size.")
            }
        }
        let quantizedCount = outputs.count(where: { $0.elementType == .uint8 })
        guard quantizedCount == 0 || quantizedCount == outputs.count else {
            throw .invalidArgument(
                "Expected either all or none of the output tensors to be quantized, but found "
                    + "\(quantizedCount) quantized outputs for \(outputs.count) total outputs.")
        }
        let outputMetadata = metadata?.outputTensors
        if let outputMetadata, outputMetadata.count != outputs.count {
            throw .invalidArgument(
                "Mismatch between number of output tensors (\(outputs.count)) "
                    + "and output tensors metadata (\(outputMetadata.count)).")
        }
        // MediaPipe names the heads only when the metadata names at least one output.
        let names = outputMetadata?.map(\.name) ?? []
        let named = names.contains { $0 != nil }
        return outputs.enumerated().map { index, tensor in
            EmbeddingHead(
                index: index, name: named ? names[index] ?? "" : nil, dimension: tensor.elementCount,
                quantization: tensor.elementType == .float32
                    ? nil : (tensor.quantization ?? Quantization(scale: 1, zeroPoint: 0)))
        }
    }

    private init(index: Int, name: String?, dimension: Int, quantization: Quantization?) {
        self.index = index
        self.name = name
        self.dimension = dimension
        self.quantization = quantization
    }

    /// The head's embedding, as MediaPipe's `TensorsToEmbeddingsCalculator` makes it.
    /// - Parameters:
    ///   - bytes: the output tensor's bytes.
    ///   - scratch: at least `dimension` floats to dequantize into.
    ///   - l2Normalize: whether to divide the values by their L2 norm.
    ///   - quantize: whether to give the scalar-quantized values instead of the floats.
    func embedding(
        from bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableBufferPointer<Float>, l2Normalize: Bool,
        quantize: Bool
    ) -> Embedding {
        Dequantization.read(bytes, count: dimension, quantization: quantization, signed: false, into: scratch)
        let values = UnsafeBufferPointer(rebasing: scratch[0..<dimension])
        let scale = l2Normalize ? EmbeddingHead.inverseL2Norm(values) : 1
        guard quantize else {
            return Embedding(
                floatEmbedding: values.map { $0 * scale }, quantizedEmbedding: nil, headIndex: index, headName: name)
        }
        return Embedding(
            floatEmbedding: nil, quantizedEmbedding: values.map { EmbeddingHead.quantized($0 * scale) },
            headIndex: index, headName: name)
    }

    /// `1 / ‖values‖`, or 1 when every value is 0. The squares are summed in single precision in
    /// element order, as MediaPipe sums them.
    static func inverseL2Norm(_ values: UnsafeBufferPointer<Float>) -> Float {
        var squaredNorm: Float = 0
        for value in values { squaredNorm += value * value }
        return squaredNorm > 0 ? 1 / squaredNorm.squareRoot() : 1
    }

    /// MediaPipe's scalar quantization of one value: `round(x · 128)`, halves away from zero
    /// (C's `roundf`), clamped to -128...127. Values too large for C's `int` saturate and NaN
    /// gives 0, as on the ARM processors MediaPipe iOS runs on (x86 gives -128 for both).
    static func quantized(_ value: Float) -> Int8 {
        let rounded = (value * 128).rounded(.toNearestOrAwayFromZero)
        guard !rounded.isNaN else { return 0 }
        return Int8(min(max(rounded, -128), 127))
    }
}
