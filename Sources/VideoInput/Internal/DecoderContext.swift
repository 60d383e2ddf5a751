import CFFmpeg
import TasksCommon

/// An opened decoder: an `AVCodecContext` from `avcodec_alloc_context3` and `avcodec_open2`,
/// freed with `avcodec_free_context` in `deinit`. Not thread-safe.
final class DecoderContext {
    /// The context; +1, owned by this object.
    let pointer: UnsafeMutablePointer<AVCodecContext>

    /// Prepares and opens a decoder for `stream` (`avcodec_alloc_context3`,
    /// `avcodec_parameters_to_context`, `avcodec_open2`) with `threadCount` threads (0: FFmpeg's
    /// automatic count), decoding into cleared buffers (`svt_decode_into_cleared_buffers`: the
    /// blocks of a damaged picture that cannot be decoded are zeros, not an older picture).
    ///
    /// - Parameters:
    ///   - stream: The stream to decode (borrowed from its format context); its time base
    ///     becomes `pkt_timebase`, the unit of the frames' timestamps.
    ///   - codec: The decoder `av_find_best_stream` chose (static FFmpeg data).
    ///   - threadCount: `VideoSourceOptions.decoderThreadCount`, checked by the caller.
    ///   - source: The URL or path, the subject of errors.
    ///   - deadline: Only to classify errors (decoder set-up does no I/O).
    /// - Throws: `TasksError` as mapped by `FFmpegError` for `.openDecoder`; the context is
    ///   freed before the error is thrown.
    init(
        stream: UnsafeMutablePointer<AVStream>, codec: UnsafePointer<AVCodec>, threadCount: Int, source: String,
        deadline: InterruptDeadline
    ) throws(TasksError) {
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw TasksError(
                .resourceExhaustedError,
                "Failed to open the video decoder of video source: cannot allocate a codec context (avcodec_alloc_context3).",
                subject: .videoSource(source))
        }
        var context: UnsafeMutablePointer<AVCodecContext>? = allocated
        let log = FFmpegLogMark()
        var status = avcodec_parameters_to_context(allocated, stream.pointee.codecpar)
        if status >= 0 {
            allocated.pointee.pkt_timebase = stream.pointee.time_base
            allocated.pointee.thread_count = Int32(threadCount)
            svt_decode_into_cleared_buffers(allocated)
            status = avcodec_open2(allocated, codec, nil)
        }
        guard status >= 0 else {
            avcodec_free_context(&context)
            throw FFmpegError.error(status, .openDecoder, source: source, deadline: deadline, log: log)
        }
        pointer = allocated
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }
}
