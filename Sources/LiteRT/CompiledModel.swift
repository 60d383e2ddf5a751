import CLiteRt
import Foundation
import TasksCommon

/// A model compiled for the CPU (XNNPACK) with its input and output buffers, ready to run.
///
/// Wraps `LiteRtCompiledModel` (`LiteRtCreateCompiledModel` / `LiteRtRunCompiledModel` /
/// `LiteRtDestroyCompiledModel`). Keeps its model (and so the environment) alive. Not
/// `Sendable`, not reentrant: one `run` at a time; callers serialize.
package final class CompiledModel {
    let handle: LiteRtCompiledModel
    /// The model this was compiled from.
    package let model: Model
    /// One buffer per input of signature 0, in order.
    package let inputBuffers: [TensorBuffer]
    /// One buffer per output of signature 0, in order.
    package let outputBuffers: [TensorBuffer]
    /// The handles of the input buffers then the output buffers, as `LiteRtRunCompiledModel`
    /// takes them (made once, so that a run allocates nothing).
    private let handles: UnsafeMutablePointer<LiteRtTensorBuffer?>

    /// The most CPU threads a model may use. XNNPACK starts every thread it is given, and
    /// tens of thousands exhaust the process's memory maps.
    package static let maximumThreadCount = 64

    /// Compiles `model` for the CPU.
    /// - Parameters:
    ///   - model: the loaded model.
    ///   - threadCount: XNNPACK threads, 1...`maximumThreadCount`.
    /// - Throws: `TasksError` invalidArgument for a thread count out of range; internal when LiteRT
    ///   cannot compile the model or create its buffers.
    package init(model: Model, threadCount: Int) throws(TasksError) {
        guard (1...CompiledModel.maximumThreadCount).contains(threadCount) else {
            throw .invalidArgument(
                "Invalid thread count: \(threadCount); it must be between 1 and \(CompiledModel.maximumThreadCount).",
                subject: .option("threadCount"))
        }
        let options = try CompiledModel.cpuOptions(threadCount: threadCount)
        defer { LiteRtDestroyOptions(options) }
        var compiled: LiteRtCompiledModel?
        // Compiling creates the XNNPACK delegate, which announces itself on stderr.
        try LogFilter.filtering { () throws(TasksError) in
            try check(
                LiteRtCreateCompiledModel(model.environment.handle, model.handle, options, &compiled),
                "LiteRtCreateCompiledModel")
        }
        guard let compiled else { throw .internal("LiteRtCreateCompiledModel returned no compiled model") }
        do {
            inputBuffers = try CompiledModel.buffers(for: compiled, model: model, input: true)
            outputBuffers = try CompiledModel.buffers(for: compiled, model: model, input: false)
        } catch {
            LiteRtDestroyCompiledModel(compiled)
            throw error
        }
        self.handle = compiled
        self.model = model
        handles = .allocate(capacity: inputBuffers.count + outputBuffers.count)
        handles.initialize(from: (inputBuffers + outputBuffers).map(\.handle), count: inputBuffers.count + outputBuffers.count)
    }

    deinit {
        LiteRtDestroyCompiledModel(handle)
        handles.deallocate()
    }

    /// Runs signature 0 on the current contents of the input buffers, filling the output buffers.
    /// - Throws: `TasksError` internal when inference fails.
    package func run() throws(TasksError) {
        // The buffers stay alive with `self`; LiteRT borrows the handles for the call.
        try check(
            LiteRtRunCompiledModel(
                handle, 0, inputBuffers.count, handles, outputBuffers.count,
                handles + inputBuffers.count),
            "LiteRtRunCompiledModel")
    }

    /// CPU options with the XNNPACK thread count. LiteRT exports no CPU-option setters, so the
    /// count goes in as an opaque "xnnpack" TOML payload that LiteRT frees with `free`.
    private static func cpuOptions(threadCount: Int) throws(TasksError) -> LiteRtOptions {
        var options: LiteRtOptions?
        try check(LiteRtCreateOptions(&options), "LiteRtCreateOptions")
        guard let options else { throw .internal("LiteRtCreateOptions returned no options") }
        do throws(TasksError) {
            try check(LiteRtSetOptionsHardwareAccelerators(options, 1), "LiteRtSetOptionsHardwareAccelerators(CPU)")
            guard let payload = strdup("num_threads = \(threadCount)\n") else { throw TasksError.internal("out of memory") }
            var opaque: LiteRtOpaqueOptions?
            let status = LiteRtCreateOpaqueOptions("xnnpack", payload, { free($0) }, &opaque)
            guard status == 0, let opaque else {
                free(payload)
                throw liteRTError(status, "LiteRtCreateOpaqueOptions(xnnpack)")
            }
            let added = LiteRtAddOpaqueOptions(options, opaque)  // ownership moves to `options`
            guard added == 0 else {
                LiteRtDestroyOpaqueOptions(opaque)
                throw liteRTError(added, "LiteRtAddOpaqueOptions")
            }
        } catch {
            LiteRtDestroyOptions(options)
            throw error
        }
        return options
    }

    private static func buffers(for compiled: LiteRtCompiledModel, model: Model, input: Bool) throws(TasksError) -> [TensorBuffer]
    {
        let tensors = input ? model.inputs : model.outputs
        let types = input ? model.inputTypes : model.outputTypes
        var buffers: [TensorBuffer] = []
        for index in tensors.indices {
            var requirements: LiteRtTensorBufferRequirements?  // owned by the compiled model
            if input {
                try check(
                    LiteRtGetCompiledModelInputBufferRequirements(compiled, 0, index, &requirements),
                    "LiteRtGetCompiledModelInputBufferRequirements")
            } else {
                try check(
                    LiteRtGetCompiledModelOutputBufferRequirements(compiled, 0, index, &requirements),
                    "LiteRtGetCompiledModelOutputBufferRequirements")
            }
            guard let requirements else { throw .internal("LiteRT gave no buffer requirements for \(tensors[index])") }
            buffers.append(
                try TensorBuffer(
                    environment: model.environment, type: types[index],
                    requirements: requirements, tensor: tensors[index]))
        }
        return buffers
    }
}
