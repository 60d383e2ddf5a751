import CImageCodecs
import TasksCommon

/// Why a C codec function failed: its message, and whether it ran out of memory.
struct CodecFailure {
    /// The C function's message ("unknown error" when it wrote none).
    var message: String
    /// True when the function returned `CIC_OUT_OF_MEMORY`: an allocation or the decoder's
    /// memory limit failed, not the data.
    var outOfMemory: Bool
}

/// Runs a C codec function that returns 0 on success, or `CIC_FAILED` or
/// `CIC_OUT_OF_MEMORY` after writing a message into the buffer it is given.
///
/// - Returns: nil on success, the failure otherwise.
func callCodec(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> CodecFailure? {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CIC_MESSAGE_CAPACITY)) { buffer in
        buffer.initialize(repeating: 0)
        let status = body(buffer.baseAddress!, buffer.count)
        guard status != 0 else { return nil }
        let message = String(cString: buffer.baseAddress!)
        return CodecFailure(message: message.isEmpty ? "unknown error" : message, outOfMemory: status == CIC_OUT_OF_MEMORY)
    }
}

/// Allocates the pixels of a decoded image and lets `fill` write them; the bytes are not
/// zeroed first.
///
/// - Parameters:
///   - byteCount: The size of the pixel buffer.
///   - fill: Writes the whole buffer and returns nil, or returns the error to throw.
/// - Throws: The error `fill` returned.
func makePixels(byteCount: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> TasksError?) throws(TasksError) -> [UInt8] {
    var failure: TasksError?
    let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
        failure = fill(buffer)
        initializedCount = failure == nil ? byteCount : 0
    }
    if let failure { throw failure }
    return pixels
}
