import CFFmpeg
import Imaging
import TasksCommon

/// A video file, stream, pipe or camera decoded frame by frame into images for the vision
/// tasks, with their presentation timestamps, using FFmpeg (libavformat, libavcodec,
/// libavdevice; libswscale only to repack unusual pixel formats). No `ffmpeg` process is run.
///
/// Classifying every frame of a video in MediaPipe's video running mode:
///
/// ```swift
/// import VideoInput
/// import VisionTasks
///
/// let options = ImageClassifierOptions()
/// options.baseOptions.modelAssetPath = "../shared/testdata/models/mobilenet_v2_1.0_224_quant_labels.tflite"
/// options.runningMode = .video
/// options.maxResults = 1
/// let classifier = try ImageClassifier(options: options)
///
/// let source = try VideoSource(url: "clip.mp4")  // or "/dev/video0", "pipe:0", "rtsp://..."
/// while let frame = try source.nextFrame() {
///     let result = try classifier.classify(videoFrame: frame.image,
///                                          timestampInMilliseconds: frame.timestampInMilliseconds)
///     let top = result.classificationResult.classifications[0].categories.first
///     print(frame.timestampInMilliseconds, top?.categoryName ?? "-", top?.score ?? 0)
/// }
/// ```
///
/// For a camera or stream in live-stream mode, pass each `frame.image` to
/// `classifyAsync(image:timestampInMilliseconds:)` instead.
///
/// Frames come out in presentation order, as the timestamps MediaPipe's video and live
/// stream modes expect (milliseconds, increasing for well-formed streams). Each frame's
/// `image` keeps the decoder's pixels (YUV stays YUV, with the stream's colour matrix and
/// range; see `nextFrame()`), so no per-frame RGB copy is made: the classifier converts only
/// the pixels it samples.
///
/// Ownership: the source owns every FFmpeg object it uses (the `AVFormatContext` with its
/// interrupt deadline and custom I/O, the `AVCodecContext`, one `AVPacket`, one `AVFrame`, and
/// a `SwsContext` once a frame needs repacking); each is held by a small internal class that
/// frees it in its `deinit`, so releasing the source, or a failing initializer, frees
/// everything made so far. Frames hold their own reference to the decoded picture (or a copy):
/// they stay valid after the source is released.
///
/// Damaged data is handled as FFmpeg's players do: packets the decoder rejects are skipped
/// (concealed frames are passed on; decoders write into cleared buffers, so the blocks of a
/// damaged picture a decoder cannot reconstruct are zeros, not an older picture that depends on
/// the frames still held); a read error in the middle (a truncated or corrupt file)
/// ends the stream after the frames already decoded, and is then thrown. If nothing at all
/// decodes, the end of the stream is a `dataLossError` rather than nil.
///
/// FFmpeg's log is silenced for the whole process (level `AV_LOG_ERROR`, nothing printed);
/// the last message it logged is added to error texts. Errors are `TasksError`s with a
/// `TasksErrorCode` and the source as their subject (`TasksError.Subject.videoSource(url)`,
/// the URL as given), so that their messages read "<url>: <reason>" (for example
/// "clip.mp4: Failed to open video source: no such file or device (...)"); the reasons do
/// not repeat the URL.
///
/// Not thread-safe and not `Sendable`: use a source from one task or thread at a time (the
/// frames it returns are `Sendable`). Different sources may be used on different threads at
/// once; FFmpeg's log is process-wide, so the FFmpeg message quoted in an error may then come
/// from another source.
public final class VideoSource {
    /// The URL or path the source was opened with; the subject of its errors.
    public let url: String
    /// The average frame rate in frames per second (`AVStream.avg_frame_rate`), or nil when
    /// the container does not state one (raw streams, some live sources).
    public let frameRate: Double?
    /// The duration of the video stream in milliseconds (`AVStream.duration`, else the
    /// container's), or nil when unknown (live sources, pipes).
    public let durationInMilliseconds: Int?
    /// The width of the video in pixels, as the stream states it at opening (> 0). Frames
    /// carry their own size, which differs if the stream changes resolution.
    public let width: Int
    /// The height of the video in pixels, as the stream states it at opening (> 0).
    public let height: Int
    /// FFmpeg's short name of the video codec (`avcodec_get_name`), such as "h264", "vp9",
    /// "mpeg4" or "rawvideo".
    public let codecName: String

    /// The budget of each blocking call; shared with `format`, which points to it.
    let deadline: InterruptDeadline
    /// The demuxer; closed after the decoder objects are released.
    let format: FormatContext
    /// The decoder of the video stream.
    let decoder: DecoderContext
    /// The packet `nextFrame()` reads into; unreferenced after each use.
    let packet: Packet
    /// The frame `nextFrame()` decodes into; unreferenced after each conversion.
    let frame: Frame
    /// The copy of each frame's planes into a `PixelImage`.
    let converter: FrameConverter
    /// The index of the video stream in `format`.
    let streamIndex: Int32
    /// The unit of the stream's timestamps, or nil when the stream's is invalid.
    let timeBase: AVRational?
    /// The orientation from the stream's display matrix, or nil.
    let streamOrientation: ImageOrientation?

    /// The timestamp, in `timeBase` units, that is 0 ms: the stream's start time, else the
    /// first frame's timestamp.
    var origin: Int64?
    /// Where decoding stands.
    var state: DecodingState = .reading
    /// A packet read but not yet accepted by the decoder (it asked to return frames first).
    var packetPending = false
    /// A read error met before the end, to throw once the decoder is drained.
    var pendingError: TasksError?
    /// The last timestamp returned, in milliseconds.
    var lastTimestamp: Int?
    /// Counters for the end-of-stream check and its message.
    var statistics = DecodingStatistics()

    /// How many packets or frames the decoder rejected and skipped so far (damaged data).
    public var damagedPacketCount: Int { statistics.damaged }

    /// Makes every blocking open or read of every `VideoSource` in the process stop within
    /// 100 ms with `cancelledError`, now and from then on: how a program ends on Ctrl-C while a
    /// camera, pipe or stream is waiting for data (call it from a signal handler or a
    /// `DispatchSource` for `SIGINT`; it only sets a flag the sources poll, so it is safe from
    /// any thread and async-signal-safe). Irreversible: a source opened afterwards fails with
    /// `cancelledError` at its first read, so call it only when the process is about to stop
    /// reading video. Frames already decoded are unaffected, and decoding itself, which does no
    /// I/O, is not interrupted.
    public static func cancelAllBlockingReads() {
        svt_cancel_blocking_reads()
    }

    /// Opens a video source and prepares its decoder, reading as much of the start as FFmpeg
    /// needs to know the streams (`avformat_open_input`, `avformat_find_stream_info`,
    /// `av_find_best_stream`, `avcodec_open2`).
    ///
    /// - Parameters:
    ///   - url: A file path; any FFmpeg URL (`file:`, `pipe:N` for an open file descriptor,
    ///     `tcp://`, `udp://`, `rtsp://`, `http(s)://`, ...); a camera such as `/dev/video0`
    ///     (opened with video4linux2); or, with `options.inputFormat`, what that format takes
    ///     (a filter graph such as `testsrc=size=64x48:rate=10` for "lavfi"). Pipes, FIFOs,
    ///     character devices and `pipe:N` are read within the timeout.
    ///   - options: Timeout, input format and demuxer options.
    /// - Throws: `TasksError` with `url` as its subject (`.videoSource(url)`; none for an
    ///   empty URL), the message reading "<url>: <reason>":
    ///   - `notFoundError`: no file or device at the path (a missing `/dev/video0`), or the
    ///     server has no such resource;
    ///   - `invalidArgumentError`: a directory; data that is not a video FFmpeg recognizes
    ///     (garbage, an empty or cut-off header); no video stream (an audio file); an unknown
    ///     input format, demuxer option or protocol; a timeout that is not positive; a decoder
    ///     thread count outside 0...64;
    ///   - `unimplementedError`: the video codec has no decoder in this FFmpeg build;
    ///   - `deadlineExceededError`: opening or probing waited longer than the timeout (an
    ///     unresponsive server, a FIFO nobody writes to, a camera that delivers nothing);
    ///   - `unavailableError`: the connection was refused or reset, or the FFmpeg libraries are
    ///     not installed (they are loaded when the first source opens);
    ///   - `permissionDeniedError`, `resourceExhaustedError`, `unknownError` for the rest.
    public init(url: String, options: VideoSourceOptions = VideoSourceOptions()) throws(TasksError) {
        try FFmpegLibrary.ensureSetUp(for: url)
        guard options.timeoutInMilliseconds > 0 else {
            throw TasksError.invalidArgument(
                "Invalid timeoutInMilliseconds \(options.timeoutInMilliseconds) for video source: must be > 0.",
                subject: .videoSource(url))
        }
        guard VideoSourceOptions.decoderThreadCounts.contains(options.decoderThreadCount) else {
            throw TasksError.invalidArgument(
                "Invalid decoderThreadCount \(options.decoderThreadCount) for video source: must be in 0...64 (0: FFmpeg's choice).",
                subject: .videoSource(url))
        }
        guard !url.isEmpty else {
            throw TasksError.invalidArgument("Invalid video source: the URL is empty.")
        }
        var inputFormat: UnsafePointer<AVInputFormat>?  // static FFmpeg data, never freed
        if let name = options.inputFormat ?? (url.hasPrefix("/dev/video") ? "video4linux2" : nil) {
            guard let found = av_find_input_format(name) else {
                throw TasksError.invalidArgument(
                    "Failed to open video source: unknown input format '\(name)' (see `ffmpeg -formats` and `ffmpeg -devices`).",
                    subject: .videoSource(url))
            }
            inputFormat = found
        }
        let opensItself = inputFormat.map { $0.pointee.flags & AVFMT_NOFILE != 0 } ?? false
        let isDevice = inputFormat.map(Self.isDevice) ?? false

        let deadline = InterruptDeadline(timeoutInMilliseconds: options.timeoutInMilliseconds)
        let input = try InputLocation(url: url, format: inputFormat)
            .openCustomInput(url: url, opensItself: opensItself, deadline: deadline)
        let format = try FormatContext(
            url: url, format: inputFormat, options: options.demuxerOptions,
            input: input, nonBlocking: isDevice, deadline: deadline)
        try format.findStreamInfo(source: url)

        let (streamIndex, codec) = try Self.findVideoStream(in: format, url: url)
        let stream = format.pointer.pointee.streams[Int(streamIndex)]!  // borrowed from `format`
        for index in 0..<Int(format.pointer.pointee.nb_streams) where index != Int(streamIndex) {
            format.pointer.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL  // demux only the video
        }
        let decoder = try DecoderContext(
            stream: stream, codec: codec, threadCount: options.decoderThreadCount, source: url, deadline: deadline)
        let width = Int(decoder.pointer.pointee.width)
        let height = Int(decoder.pointer.pointee.height)
        guard width > 0, height > 0 else {
            throw TasksError.invalidArgument(
                "Failed to open video source: the video stream does not state its frame size (\(width)x\(height)).",
                subject: .videoSource(url))
        }

        self.url = url
        self.width = width
        self.height = height
        codecName = String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
        let timeBase = stream.pointee.time_base
        self.timeBase = timeBase.num > 0 && timeBase.den > 0 ? timeBase : nil
        let averageRate = stream.pointee.avg_frame_rate
        frameRate = averageRate.num > 0 && averageRate.den > 0 ? Double(averageRate.num) / Double(averageRate.den) : nil
        durationInMilliseconds = Self.duration(of: stream, in: format.pointer)
        origin = stream.pointee.start_time != SVT_NOPTS_VALUE ? stream.pointee.start_time : nil
        streamOrientation = DisplayMatrix.orientation(of: stream)
        self.streamIndex = streamIndex
        self.deadline = deadline
        self.format = format
        self.decoder = decoder
        packet = try Packet(source: url)
        frame = try Frame(source: url)
        converter = FrameConverter()
    }

    /// The video stream FFmpeg would pick (`av_find_best_stream`) and its decoder.
    private static func findVideoStream(
        in format: FormatContext, url: String
    ) throws(TasksError) -> (Int32, UnsafePointer<AVCodec>) {
        var codec: UnsafePointer<AVCodec>?  // static FFmpeg data, never freed
        let log = FFmpegLogMark()
        let index = av_find_best_stream(format.pointer, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)
        if index >= 0, let codec {
            return (index, codec)
        }
        if index == SVT_AVERROR_DECODER_NOT_FOUND {
            let anyVideo = av_find_best_stream(format.pointer, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
            if anyVideo >= 0, let stream = format.pointer.pointee.streams[Int(anyVideo)] {
                let name = String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
                throw TasksError.unimplemented(
                    "Failed to open video source: unsupported video codec '\(name)' (this FFmpeg build has no decoder for it).",
                    subject: .videoSource(url))
            }
        }
        throw FFmpegError.error(index, .findVideoStream, source: url, deadline: format.deadline, log: log)
    }

    /// Whether `format` is a video capture device such as video4linux2 (its class category is
    /// `AV_CLASS_CATEGORY_DEVICE_VIDEO_INPUT`), whose reads are made non-blocking and retried
    /// within the timeout, as a device read would otherwise wait for the next frame for ever.
    private static func isDevice(_ format: UnsafePointer<AVInputFormat>) -> Bool {
        format.pointee.priv_class?.pointee.category == AV_CLASS_CATEGORY_DEVICE_VIDEO_INPUT
    }

    /// The stream's duration in milliseconds, else the container's (`AV_TIME_BASE` units),
    /// or nil when neither is known.
    private static func duration(of stream: UnsafePointer<AVStream>, in format: UnsafePointer<AVFormatContext>) -> Int? {
        let streamDuration = stream.pointee.duration
        let timeBase = stream.pointee.time_base
        if streamDuration != SVT_NOPTS_VALUE, streamDuration > 0, timeBase.num > 0, timeBase.den > 0 {
            return Int(av_rescale_q(streamDuration, timeBase, AVRational(num: 1, den: 1000)))
        }
        let formatDuration = format.pointee.duration
        if formatDuration != SVT_NOPTS_VALUE, formatDuration > 0 {
            return Int(av_rescale_q(formatDuration, AVRational(num: 1, den: AV_TIME_BASE), AVRational(num: 1, den: 1000)))
        }
        return nil
    }
}

/// A `VideoSource` wraps FFmpeg contexts that must be used from one thread at a time.
@available(*, unavailable, message: "VideoSource is not thread-safe; use it from one task at a time")
extension VideoSource: Sendable {}
