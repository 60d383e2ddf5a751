import Foundation
import TFLiteMetadata
import TasksCommon

extension TailSource {
    /// The values of constant tensor `tensor` (weights or a bias) as float32: FLOAT32 as stored;
    /// UINT8, INT8 and INT32 dequantized, `real = scale[c] × (stored − zeroPoint[c])` with `c`
    /// the index along `quantized_dimension` (one scale: the whole tensor).
    /// - Parameter role: what the tensor is to operator `operation` ("filter", "bias"), for messages.
    /// - Throws: `TasksError` invalidArgument for a tensor that is not constant, of another type,
    ///   quantized without scales, or whose data is not its shape's size.
    func dequantized(_ tensor: Int32, role: String, of operation: Int) throws -> [Float] {
        let index = Int(tensor)
        guard isConstant(tensor) else {
            throw TasksError.invalidArgument(
                "The \(role) of \(label(operator: operation)) is not a constant tensor; training needs constant weights.")
        }
        let description = graph.tensors[index]
        let count = description.shape.reduce(1) { $0 * Int($1) }
        let widths = ["FLOAT32": 4, "UINT8": 1, "INT8": 1, "INT32": 4]
        guard let width = widths[description.typeName], role == "bias" || description.typeName != "INT32" else {
            throw TasksError.invalidArgument(
                "The \(role) of \(label(operator: operation)) is \(description.typeName); training reads FLOAT32, UINT8 or INT8 "
                    + "weights with FLOAT32 or INT32 biases.")
        }
        let bytes = [UInt8](try data(of: index))
        guard bytes.count == count * width else {
            throw TasksError.invalidArgument(
                "The \(role) \(label(index)) has \(bytes.count) bytes of data; its shape \(description.shape) "
                    + "needs \(count * width).")
        }
        let stored = Self.storedValues(bytes, type: description.typeName)
        guard description.typeName != "FLOAT32" else { return stored }
        return try dequantize(stored, tensor: index, role: role, of: operation)
    }

    /// The elements of little-endian `bytes` of a FLOAT32, UINT8, INT8 or INT32 tensor, as Float.
    private static func storedValues(_ bytes: [UInt8], type: String) -> [Float] {
        switch type {
        case "UINT8": return bytes.map { Float($0) }
        case "INT8": return bytes.map { Float(Int8(bitPattern: $0)) }
        default:
            return stride(from: 0, to: bytes.count, by: 4).map { start in
                let bits = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << (8 * $1) }
                return type == "FLOAT32" ? Float(bitPattern: bits) : Float(Int32(bitPattern: bits))
            }
        }
    }

    /// `scale[c] × (stored − zeroPoint[c])`, `c` the element's index along the quantized dimension.
    private func dequantize(_ stored: [Float], tensor: Int, role: String, of operation: Int) throws -> [Float] {
        let description = graph.tensors[tensor]
        let shape = description.shape.map(Int.init)
        let axis = try quantizedDimension(of: tensor)
        let scales = description.scale
        let zeroPoints = description.zeroPoint.isEmpty ? [Int64](repeating: 0, count: scales.count) : description.zeroPoint
        let channels = scales.count == 1 ? 1 : (shape.indices.contains(axis) ? shape[axis] : 0)
        guard !scales.isEmpty, scales.count == channels, zeroPoints.count == scales.count else {
            throw TasksError.invalidArgument(
                "The \(role) \(label(tensor)) of \(label(operator: operation)) is \(description.typeName) with "
                    + "\(scales.count) scales and \(description.zeroPoint.count) zero points for shape \(shape) "
                    + "(quantized dimension \(axis)); training needs one, or one per channel.")
        }
        // Elements of one channel repeat every `inner` values (the dimensions after the axis).
        let inner = channels == 1 ? 1 : shape[(axis + 1)...].reduce(1, *)
        return stored.enumerated().map { offset, value in
            let channel = channels == 1 ? 0 : (offset / inner) % channels
            return scales[channel] * (value - Float(zeroPoints[channel]))
        }
    }

    /// The values of a constant INT32 tensor (an axis list, a shape).
    /// - Throws: `TasksError` invalidArgument when it is not a constant INT32 tensor.
    func int32Constant(_ tensor: Int32, role: String, of operation: Int) throws -> [Int32] {
        let index = Int(tensor)
        guard isConstant(tensor), graph.tensors[index].typeName == "INT32" else {
            throw TasksError.invalidArgument(
                "The \(role) of \(label(operator: operation)) is not a constant INT32 tensor; training needs it fixed.")
        }
        let bytes = [UInt8](try data(of: index))
        return stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { start in
            Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[start + $1]) << (8 * $1) })
        }
    }
}
