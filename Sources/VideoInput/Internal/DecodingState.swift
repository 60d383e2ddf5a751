import TasksCommon

/// Where a `VideoSource`'s decoding stands.
enum DecodingState {
    /// Packets are read and sent to the decoder.
    case reading
    /// The input has ended (or failed); the decoder returns the frames it still holds.
    case draining
    /// The stream has ended: `nextFrame()` returns nil.
    case finished
    /// The stream failed: `nextFrame()` throws this error again.
    case failed(TasksError)
}
