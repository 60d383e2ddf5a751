import CFFmpeg
import TasksCommon

/// An `AVPacket`, allocated with `av_packet_alloc` and freed with `av_packet_free` in `deinit`.
///
/// The data a packet references between `av_read_frame` and `av_packet_unref` belongs to
/// the packet; the caller unreferences it after each use.
final class Packet {
    /// The packet; +1, owned by this object.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet (`av_packet_alloc`).
    ///
    /// - Parameter source: The URL or path of the video source it is for, the subject of errors.
    /// - Throws: `TasksError` `resourceExhaustedError` when FFmpeg cannot allocate it.
    init(source: String) throws(TasksError) {
        guard let packet = av_packet_alloc() else {
            throw TasksError(
                .resourceExhaustedError, "Failed to allocate an FFmpeg packet (av_packet_alloc): out of memory.",
                subject: .videoSource(source))
        }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
