import CLiteRt
import Foundation
import TasksCommon

/// A TFLite model loaded into LiteRT from bytes, with the descriptions of its first
/// signature's input and output tensors.
///
/// Wraps `LiteRtModel` (`LiteRtCreateModelFromBuffer` / `LiteRtDestroyModel`). The file-path
/// API is deliberately not used: it skips flatbuffer verification and crashes on corrupt files.
/// The model keeps its own aligned copy of the bytes (LiteRT borrows them for its lifetime)
/// and a strong reference to its environment. Not `Sendable`.
package final class Model {
    let handle: LiteRtModel
    /// The environment the model was created in; kept alive as long as the model.
    package let environment: Environment
    private let storage: UnsafeMutableRawBufferPointer
    /// The inputs of signature 0, in order.
    package let inputs: [TensorDescription]
    /// The outputs of signature 0, in order.
    package let outputs: [TensorDescription]
    /// LiteRT's own type records for the inputs and outputs, for creating buffers.
    let inputTypes: [LiteRtRankedTensorType]
    let outputTypes: [LiteRtRankedTensorType]

    /// Loads a model from its flatbuffer bytes.
    /// - Parameters:
    ///   - bytes: the whole .tflite file.
    ///   - environment: the environment to create it in.
    /// - Throws: `TasksError` invalidArgument when the bytes are not a valid model (LiteRT verifies
    ///   the flatbuffer), or when the model has no signature or a tensor that is not ranked.
    package init(bytes: Data, environment: Environment) throws(TasksError) {
        guard !bytes.isEmpty else { throw .invalidArgument("The model is empty (0 bytes).") }
        // Flatbuffers need their tables aligned; Data's storage gives no such promise.
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 64)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        var model: LiteRtModel?
        let status = LiteRtCreateModelFromBuffer(environment.handle, storage.baseAddress, storage.count, &model)
        guard status == 0, let model else {
            storage.deallocate()
            throw liteRTError(status, "LiteRtCreateModelFromBuffer")
        }
        do {
            let signature = try Model.firstSignature(of: model)
            (inputs, inputTypes) = try Model.tensors(of: signature, input: true)
            (outputs, outputTypes) = try Model.tensors(of: signature, input: false)
        } catch {
            LiteRtDestroyModel(model)
            storage.deallocate()
            throw error
        }
        self.handle = model
        self.storage = storage
        self.environment = environment
    }

    deinit {
        LiteRtDestroyModel(handle)
        storage.deallocate()
    }

    private static func firstSignature(of model: LiteRtModel) throws(TasksError) -> LiteRtSignature {
        var count: LiteRtParamIndex = 0
        try check(LiteRtGetNumModelSignatures(model, &count), "LiteRtGetNumModelSignatures")
        guard count > 0 else { throw .invalidArgument("The model has no signature (no subgraph to run).") }
        var signature: LiteRtSignature?  // borrowed from the model
        try check(LiteRtGetModelSignature(model, 0, &signature), "LiteRtGetModelSignature")
        guard let signature else { throw .internal("LiteRtGetModelSignature returned no signature") }
        return signature
    }

    private static func tensors(
        of signature: LiteRtSignature, input: Bool
    ) throws(TasksError) -> ([TensorDescription], [LiteRtRankedTensorType]) {
        var count: LiteRtParamIndex = 0
        if input {
            try check(LiteRtGetNumSignatureInputs(signature, &count), "LiteRtGetNumSignatureInputs")
        } else {
            try check(LiteRtGetNumSignatureOutputs(signature, &count), "LiteRtGetNumSignatureOutputs")
        }
        var descriptions: [TensorDescription] = []
        var types: [LiteRtRankedTensorType] = []
        for index in 0..<count {
            var tensor: LiteRtTensor?  // borrowed from the model
            if input {
                try check(LiteRtGetSignatureInputTensorByIndex(signature, index, &tensor), "LiteRtGetSignatureInputTensorByIndex")
            } else {
                try check(
                    LiteRtGetSignatureOutputTensorByIndex(signature, index, &tensor), "LiteRtGetSignatureOutputTensorByIndex")
            }
            guard let tensor else { throw .internal("LiteRT returned no tensor for index \(index)") }
            let (description, type) = try describe(tensor)
            descriptions.append(description)
            types.append(type)
        }
        return (descriptions, types)
    }

    private static func describe(_ tensor: LiteRtTensor) throws(TasksError) -> (TensorDescription, LiteRtRankedTensorType) {
        var namePointer: UnsafePointer<CChar>?  // borrowed, valid while the model lives
        try check(LiteRtGetTensorName(tensor, &namePointer), "LiteRtGetTensorName")
        let name = namePointer.map { String(cString: $0) } ?? ""
        let type = try rankedType(of: tensor, name: name)
        let shape = withUnsafeBytes(of: type.layout.dimensions) { raw in
            raw.bindMemory(to: Int32.self).prefix(Int(type.layout.rank)).map(Int.init)
        }
        let description = TensorDescription(
            name: name, elementType: ElementType(raw: type.element_type.rawValue),
            shape: shape, quantization: try quantization(of: tensor))
        return (description, type)
    }

    private static func rankedType(of tensor: LiteRtTensor, name: String) throws(TasksError) -> LiteRtRankedTensorType {
        var typeId = kLiteRtRankedTensorType
        try check(LiteRtGetTensorTypeId(tensor, &typeId), "LiteRtGetTensorTypeId")
        guard typeId == kLiteRtRankedTensorType else {
            throw .invalidArgument("Tensor \(name) has no fixed rank; only ranked tensors are supported.")
        }
        var type = LiteRtRankedTensorType()
        try check(LiteRtGetRankedTensorType(tensor, &type), "LiteRtGetRankedTensorType")
        return type
    }

    private static func quantization(of tensor: LiteRtTensor) throws(TasksError) -> Quantization? {
        var kind = kLiteRtQuantizationNone
        try check(LiteRtGetQuantizationTypeId(tensor, &kind), "LiteRtGetQuantizationTypeId")
        guard kind == kLiteRtQuantizationPerTensor else { return nil }
        var parameters = LiteRtQuantizationPerTensor()
        try check(LiteRtGetPerTensorQuantization(tensor, &parameters), "LiteRtGetPerTensorQuantization")
        return Quantization(scale: parameters.scale, zeroPoint: parameters.zero_point)
    }
}
