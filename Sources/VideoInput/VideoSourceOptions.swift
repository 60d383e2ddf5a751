/// How a `VideoSource` opens and reads its input: the timeout of each blocking step, and the
/// FFmpeg input format and options (as `ffmpeg -f FORMAT -OPTION VALUE -i URL` takes them).
///
/// ```swift
/// import VideoInput
///
/// // Raw RGB frames, as `ffmpeg ... -f rawvideo -pix_fmt rgb24 frames.rgb` writes them (the
/// // "Cameras, pipes and streams" article makes frames.rgb); "pipe:0" reads standard input.
/// let options = VideoSourceOptions(timeoutInMilliseconds: 5_000, inputFormat: "rawvideo",
///                                  demuxerOptions: ["video_size": "640x480", "pixel_format": "rgb24", "framerate": "30"])
/// let source = try VideoSource(url: "frames.rgb", options: options)
/// print(try source.nextFrame()?.timestampInMilliseconds ?? -1)
/// ```
///
/// The options are checked when a source opens: a timeout that is not positive, an unknown input
/// format or an option that neither the demuxer nor the protocol knows is an
/// `invalidArgumentError` from `VideoSource.init(url:options:)`.
public struct VideoSourceOptions: Sendable, Equatable {
    /// The longest any single blocking step may wait, in milliseconds (> 0; default 10 000):
    /// opening (connecting, probing), reading the stream parameters, and each read of
    /// `nextFrame()`. The budget restarts before every step, so a live source may run for
    /// ever as long as data keeps coming. When it runs out the step fails with
    /// `deadlineExceededError` instead of hanging (an unreachable server, a pipe or FIFO with
    /// no writer or a stalled one, a camera that delivers nothing). Decoding itself does no
    /// I/O and is not interrupted. Reading the stream parameters of a live source may take up
    /// to FFmpeg's `analyzeduration` of real time (5 s by default): keep the timeout above
    /// it, or lower it with the `analyzeduration` demuxer option (microseconds).
    public var timeoutInMilliseconds: Int
    /// The FFmpeg input format (demuxer or device) to use instead of probing the data, as
    /// `ffmpeg -f` takes it: "rawvideo" for raw frame pipes, "lavfi" for filter graph sources
    /// such as `testsrc`, "video4linux2" for cameras (the default for paths starting with
    /// `/dev/video`). nil (the default) probes.
    public var inputFormat: String?
    /// Options for the demuxer and protocol, as `ffmpeg -OPTION VALUE` before `-i` takes
    /// them: for "rawvideo", `video_size` ("640x480"), `pixel_format` ("rgb24") and
    /// `framerate` ("30"); for cameras, `video_size`, `framerate`, `input_format`; for any
    /// input, FFmpeg's format options such as `probesize` and `analyzeduration`. An option
    /// that neither the demuxer nor the protocol knows is an `invalidArgumentError`. Empty by
    /// default.
    public var demuxerOptions: [String: String]
    /// The decoder's threads, 0...64 (default 0): 0 lets FFmpeg choose (`thread_count` 0: about
    /// one per core, as frame or slice threads); N uses N. A program that classifies frames while
    /// they decode competes with its own decoder for the cores: giving the decoder the cores
    /// inference does not use is faster than FFmpeg's choice (`vision-tasks classify-video` on
    /// 2 cores: 1 decoder thread, about 15% more frames per second than FFmpeg's 3). Each
    /// thread holds frames of its own (memory grows with the count), and frame threads hold
    /// back about a frame each before the first comes out: keep live sources at 1 or a few.
    /// Outside 0...64 is an `invalidArgumentError` when the source opens.
    public var decoderThreadCount: Int

    /// Creates options; every parameter has the default described on its property.
    public init(
        timeoutInMilliseconds: Int = 10_000, inputFormat: String? = nil, demuxerOptions: [String: String] = [:],
        decoderThreadCount: Int = 0
    ) {
        self.timeoutInMilliseconds = timeoutInMilliseconds
        self.inputFormat = inputFormat
        self.demuxerOptions = demuxerOptions
        self.decoderThreadCount = decoderThreadCount
    }

    /// The decoder thread counts a source accepts.
    static let decoderThreadCounts = 0...64
}
