import CLiteRt
import TasksCommon

/// A host-memory tensor buffer sized for one input or output of a compiled model.
///
/// Wraps `LiteRtTensorBuffer` (`LiteRtCreateManagedTensorBufferFromRequirements` /
/// `LiteRtDestroyTensorBuffer`). Its memory is reachable only inside `withBytes`, which
/// locks and unlocks around the closure. Not `Sendable`.
package final class TensorBuffer {
    let handle: LiteRtTensorBuffer
    /// The tensor this buffer holds.
    package let tensor: TensorDescription
    private let environment: Environment

    init(
        environment: Environment, type: LiteRtRankedTensorType, requirements: LiteRtTensorBufferRequirements,
        tensor: TensorDescription
    ) throws(TasksError) {
        var type = type
        var buffer: LiteRtTensorBuffer?
        try check(
            LiteRtCreateManagedTensorBufferFromRequirements(environment.handle, &type, requirements, &buffer),
            "LiteRtCreateManagedTensorBufferFromRequirements for \(tensor)")
        guard let buffer else { throw .internal("LiteRT created no buffer for \(tensor)") }
        self.handle = buffer
        self.tensor = tensor
        self.environment = environment
    }

    deinit { LiteRtDestroyTensorBuffer(handle) }

    /// Locks the buffer, gives `body` its bytes (exactly the tensor's size), then unlocks.
    /// - Parameters:
    ///   - forWriting: lock for writing (inputs) rather than reading (outputs).
    ///   - body: reads or writes the bytes; must not keep the pointer.
    /// - Throws: `TasksError` when locking fails, or what `body` throws.
    package func withBytes<R>(
        forWriting: Bool, _ body: (UnsafeMutableRawBufferPointer) throws(TasksError) -> R
    ) throws(TasksError) -> R {
        var address: UnsafeMutableRawPointer?
        let mode = forWriting ? kLiteRtTensorBufferLockModeWrite : kLiteRtTensorBufferLockModeRead
        try check(LiteRtLockTensorBuffer(handle, &address, mode), "LiteRtLockTensorBuffer for \(tensor)")
        defer { LiteRtUnlockTensorBuffer(handle) }
        guard let address else { throw .internal("LiteRtLockTensorBuffer gave no memory for \(tensor)") }
        let byteCount = tensor.elementCount * tensor.elementType.byteCount
        return try body(UnsafeMutableRawBufferPointer(start: address, count: byteCount))
    }
}
