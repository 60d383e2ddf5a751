import CFFmpeg
import TasksCommon

/// An `AVFrame`, allocated with `av_frame_alloc` and freed with `av_frame_free` in `deinit`.
///
/// The buffers a decoded frame references belong to the frame until `av_frame_unref`.
final class Frame {
    /// The frame; +1, owned by this object.
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame (`av_frame_alloc`).
    ///
    /// - Parameter source: The URL or path of the video source it is for, the subject of errors.
    /// - Throws: `TasksError` `resourceExhaustedError` when FFmpeg cannot allocate it.
    init(source: String) throws(TasksError) {
        guard let frame = av_frame_alloc() else {
            throw TasksError(
                .resourceExhaustedError, "Failed to allocate an FFmpeg frame (av_frame_alloc): out of memory.",
                subject: .videoSource(source))
        }
        pointer = frame
    }

    /// Takes over `frame` (+1), which is freed with this object: for example a new reference to
    /// a decoded frame's buffers (`av_frame_clone`).
    init(adopting frame: UnsafeMutablePointer<AVFrame>) {
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}
