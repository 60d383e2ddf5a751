/// The element type of a tensor, as LiteRT reports it (`LiteRtElementType`).
package enum ElementType: Equatable, Sendable, CustomStringConvertible {
    case float32, int32, uint8, int64, bool, int16, int8, float16
    /// A type this wrapper does not name, with LiteRT's raw value.
    case other(UInt32)

    init(raw: UInt32) {
        self =
            switch raw {
            case 1: .float32
            case 2: .int32
            case 3: .uint8
            case 4: .int64
            case 6: .bool
            case 7: .int16
            case 9: .int8
            case 10: .float16
            default: .other(raw)
            }
    }

    /// The size of one element in bytes (0 when unknown).
    package var byteCount: Int {
        switch self {
        case .float32, .int32: 4
        case .uint8, .int8, .bool: 1
        case .int64: 8
        case .int16, .float16: 2
        case .other: 0
        }
    }

    /// Upper-case names as MediaPipe prints them ("FLOAT32", "UINT8", "INT8").
    package var description: String {
        switch self {
        case .float32: "FLOAT32"
        case .int32: "INT32"
        case .uint8: "UINT8"
        case .int64: "INT64"
        case .bool: "BOOL"
        case .int16: "INT16"
        case .int8: "INT8"
        case .float16: "FLOAT16"
        case .other(let raw): "TYPE(\(raw))"
        }
    }
}

/// Per-tensor affine quantization: `real = scale · (quantized − zeroPoint)`.
package struct Quantization: Equatable, Sendable {
    /// The step between two quantized values, in real units.
    package var scale: Float
    /// The quantized value that represents real 0.
    package var zeroPoint: Int64

    package init(scale: Float, zeroPoint: Int64) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }
}

/// What a model says about one of its input or output tensors, copied out of LiteRT at load.
package struct TensorDescription: Equatable, Sendable, CustomStringConvertible {
    /// The tensor's name in the model (may be empty).
    package var name: String
    /// The element type.
    package var elementType: ElementType
    /// The dimensions, outermost first (for an image input `[1, height, width, channels]`).
    package var shape: [Int]
    /// Per-tensor quantization, or nil for an unquantized tensor.
    package var quantization: Quantization?

    package init(name: String, elementType: ElementType, shape: [Int], quantization: Quantization?) {
        self.name = name
        self.elementType = elementType
        self.shape = shape
        self.quantization = quantization
    }

    /// The number of elements (the product of the dimensions).
    package var elementCount: Int { shape.reduce(1, *) }

    /// `name` with its type and shape, for error messages: `input (UINT8 [1, 224, 224, 3])`.
    package var description: String {
        "\(name.isEmpty ? "<unnamed>" : name) (\(elementType) [\(shape.map(String.init).joined(separator: ", "))])"
    }
}
