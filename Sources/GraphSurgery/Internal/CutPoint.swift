import Foundation
import TFLiteMetadata
import TasksCommon

/// The tensor a graph edit cuts a base at (its features, or a fine-tuned tail's input),
/// checked: computed by an operator (the last one kept), of one image, FLOAT32, UINT8 or INT8.
struct CutPoint {
    let tensor: Int32
    /// The operator that writes it: the operators after it are dropped.
    let producer: Int
    let shape: [Int]
    let typeName: String
    /// "tensor 82 (name)", for messages.
    let label: String
    /// Its quantization (the first scale and zero point); nil for FLOAT32.
    let quantization: TensorQuantization?

    /// Its element count.
    var size: Int { shape.reduce(1, *) }
    var isQuantized: Bool { typeName != "FLOAT32" }

    /// - Parameter noun: what the tensor is to the edit ("feature", "cut"), for messages.
    /// - Throws: `TasksError` invalidArgument for a tensor out of range, produced by no operator,
    ///   not of shape `[1, ...]`, or not FLOAT32, UINT8 or INT8.
    init(graph: ModelGraph, tensor: Int, noun: String) throws(TasksError) {
        guard tensor >= 0, tensor < graph.tensors.count else {
            throw .invalidArgument("Tensor \(tensor) does not exist: the base model has \(graph.tensors.count) tensors.")
        }
        let description = graph.tensors[tensor]
        label = description.name.isEmpty ? "tensor \(tensor)" : "tensor \(tensor) (\(description.name))"
        guard let producer = graph.producer(of: Int32(tensor)) else {
            throw .invalidArgument("\(label) is an input or a constant of the base model, not a \(noun) its layers compute.")
        }
        guard description.shape.first == 1 else {
            throw .invalidArgument("\(label) has shape \(description.shape); \(noun)s of one image have shape [1, ...].")
        }
        guard ["FLOAT32", "UINT8", "INT8"].contains(description.typeName) else {
            throw .invalidArgument("\(label) is \(description.typeName); \(noun)s must be FLOAT32, UINT8 or INT8.")
        }
        self.tensor = Int32(tensor)
        self.producer = producer
        shape = description.shape.map(Int.init)
        typeName = description.typeName
        quantization =
            typeName == "FLOAT32"
            ? nil
            : TensorQuantization(scale: description.scale.first ?? 1, zeroPoint: Int(description.zeroPoint.first ?? 0))
    }

    /// The tensor as INT8: itself, or a new `QUANTIZE` of it named `name` (a UINT8 tensor
    /// requantized exactly, its zero point moved by 128; a FLOAT32 one quantized for `range`).
    func int8Input(in appendix: inout GraphAppendix, range: ClosedRange<Float>, name: String) -> Int8Value {
        switch (typeName, quantization) {
        case ("INT8", let quantization?):
            return Int8Value(tensor: tensor, quantization: quantization)
        case ("UINT8", let quantization?):
            let shifted = TensorQuantization(scale: quantization.scale, zeroPoint: quantization.zeroPoint - 128)
            return appendix.quantizeToInt8(tensor, shape: shape, shifted, name: name)
        default:
            return appendix.quantizeToInt8(tensor, shape: shape, TailCalibration.int8(range), name: name)
        }
    }

    /// The tensor as FLOAT32: itself, or a new `DEQUANTIZE` of it named `name`.
    func floatInput(in appendix: inout GraphAppendix, name: String) -> Int32 {
        guard isQuantized else { return tensor }
        return appendix.dequantize(tensor, shape: shape, int8: typeName == "INT8", name: name)
    }
}
