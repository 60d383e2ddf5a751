import Foundation

/// A tiny real TFLite model whose outputs are RESHAPEs of its input, to check which output
/// shapes the classifier accepts and how several heads are handled: a UINT8 image `[1, 4, 4, 3]`
/// (scale 1/256, zero point 0) reshaped to each output shape (48 elements in all), so each score
/// is one resampled pixel channel / 256. Built with `FB` from the TFLite schema's field ids.
public enum ReshapeModel {
    /// The output shapes the tests try, named for messages and reference files.
    public static let shapes: [(name: String, shape: [Int32])] = [
        ("n", [48]), ("1xn", [1, 48]), ("1x1xn", [1, 1, 48]), ("1x1x1xn", [1, 1, 1, 48]),
        ("2x24", [2, 24]), ("1xnx1", [1, 48, 1]), ("4x12", [4, 12]),
    ]

    /// A model with one output of `outputShape`, named "scores".
    public static func bytes(outputShape: [Int32]) -> [UInt8] {
        bytes(outputShapes: [outputShape])
    }

    /// A model with one output per shape (the first named "scores", then "scores_1", ...).
    public static func bytes(outputShapes: [[Int32]]) -> [UInt8] {
        let quantization = FB.table([2: .floats([1.0 / 256]), 3: .int64s([0])])
        var tensors: [FB] = [
            .table([0: .int32s([1, 4, 4, 3]), 1: .uint8(3), 2: .uint32(0), 3: .string("image"), 4: quantization])
        ]
        var operators: [FB] = []
        var buffers: [FB] = [.table([:])]
        for (index, shape) in outputShapes.enumerated() {
            let suffix = index == 0 ? "" : "_\(index)"
            let shapeTensor = Int32(tensors.count)
            tensors.append(
                .table([
                    0: .int32s([Int32(shape.count)]), 1: .uint8(2), 2: .uint32(UInt32(buffers.count)),
                    3: .string("new_shape" + suffix),
                ]))
            tensors.append(
                .table([0: .int32s(shape), 1: .uint8(3), 2: .uint32(0), 3: .string("scores" + suffix), 4: quantization]))
            operators.append(.table([0: .uint32(0), 1: .int32s([0, shapeTensor]), 2: .int32s([shapeTensor + 1])]))
            buffers.append(.table([0: .bytes(shape.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) })]))
        }
        let outputs = outputShapes.indices.map { Int32(2 + 2 * $0) }
        let subgraph = FB.table([
            0: .tables(tensors), 1: .int32s([0]), 2: .int32s(outputs), 3: .tables(operators),
            4: .string("main"),
        ])
        // OperatorCode: deprecated_builtin_code and builtin_code RESHAPE (22), version 1.
        let model = FB.table([
            0: .uint32(3), 1: .tables([.table([0: .uint8(22), 2: .uint32(1), 3: .uint32(22)])]),
            2: .tables([subgraph]), 3: .string("reshape"), 4: .tables(buffers),
        ])
        return FB.buffer(root: model, identifier: "TFL3")
    }
}
