import Foundation
import TestSupport

/// A tiny real TFLite model whose output is a RESHAPE of its input, to check which output
/// shapes the classifier accepts: a UINT8 image `[1, 4, 4, 3]` (scale 1/256, zero point 0)
/// reshaped to `outputShape` (48 elements in all), so each score is one resampled pixel
/// channel / 256. Built with the tests' FlatBuffer writer from the TFLite schema's field ids.
enum ReshapeModel {
    /// The output shapes the tests try, named for messages and reference files.
    static let shapes: [(name: String, shape: [Int32])] = [
        ("n", [48]), ("1xn", [1, 48]), ("1x1xn", [1, 1, 48]), ("1x1x1xn", [1, 1, 1, 48]),
        ("2x24", [2, 24]), ("1xnx1", [1, 48, 1]), ("4x12", [4, 12]),
    ]

    /// The model's bytes.
    static func bytes(outputShape: [Int32]) -> [UInt8] {
        let quantization = FB.table([2: .floats([1.0 / 256]), 3: .int64s([0])])
        let tensors: [FB] = [
            .table([0: .int32s([1, 4, 4, 3]), 1: .uint8(3), 2: .uint32(0), 3: .string("image"), 4: quantization]),
            .table([0: .int32s([Int32(outputShape.count)]), 1: .uint8(2), 2: .uint32(1), 3: .string("new_shape")]),
            .table([0: .int32s(outputShape), 1: .uint8(3), 2: .uint32(0), 3: .string("scores"), 4: quantization]),
        ]
        let reshape = FB.table([0: .uint32(0), 1: .int32s([0, 1]), 2: .int32s([2])])
        let subgraph = FB.table([0: .tables(tensors), 1: .int32s([0]), 2: .int32s([2]), 3: .tables([reshape]),
                                 4: .string("main")])
        let shapeBytes = outputShape.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
        // OperatorCode: deprecated_builtin_code and builtin_code RESHAPE (22), version 1.
        let model = FB.table([
            0: .uint32(3), 1: .tables([.table([0: .uint8(22), 2: .uint32(1), 3: .uint32(22)])]),
            2: .tables([subgraph]), 3: .string("reshape"), 4: .tables([.table([:]), .table([0: .bytes(shapeBytes)])]),
        ])
        return FB.buffer(root: model, identifier: "TFL3")
    }
}
