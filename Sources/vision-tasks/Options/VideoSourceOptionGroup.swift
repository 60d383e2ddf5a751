import Foundation
import VideoInput

/// The video source options classify-video and live share.
struct VideoSourceOptionGroup: ParsableArguments {
    static let inputFormat = Option<String?>(
        name: "input-format", valueName: "NAME",
        help: "FFmpeg input format instead of probing: rawvideo (raw frames on a pipe: give --video-size, --pixel-format, "
            + "--framerate), lavfi, video4linux2 (the default for /dev/video*).")
    static let videoSize = Option<String?>(name: "video-size", valueName: "WxH", help: "Frame size for rawvideo or a camera.")
    static let pixelFormat = Option<String?>(
        name: "pixel-format", valueName: "NAME",
        help: "FFmpeg pixel format for rawvideo (e.g. rgb24, nv12, yuyv422).")
    static let framerate = Option<String?>(name: "framerate", valueName: "F", help: "Frame rate for rawvideo or a camera.")
    static let timeout = Option<Int>(
        name: "timeout", valueName: "MS", help: "Give up when opening or reading waits longer than MS milliseconds.",
        default: 10_000, defaultDescription: "10000",
        transform: ValueParser.integer("timeout", in: ValueRanges.timeoutMilliseconds))

    static let decoderThreads = Option<Int?>(
        name: "decoder-threads", valueName: "N",
        help: "FFmpeg decoder threads, 1...64. Each holds frames of its own (more memory), and as frame threads each "
            + "delays the results by about a frame. Default: classify-video, the cores --threads leaves (1 to 16: "
            + "decoding and inference share the cores instead of competing for them); live, 1.",
        default: nil, transform: ValueParser.integer("decoder-threads", in: ValueRanges.decoderThreads))

    static let optionTable = [
        inputFormat.definition, videoSize.definition, pixelFormat.definition, framerate.definition,
        timeout.definition, decoderThreads.definition,
    ]

    /// The source options FFmpeg is opened with, but the decoder thread count (see
    /// `sourceOptions(inferenceThreads:liveStream:)`).
    private let options: VideoSourceOptions
    /// `--decoder-threads`, if given.
    private let decoderThreads: Int?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        var demuxer: [String: String] = [:]
        demuxer["video_size"] = try parsed.value(Self.videoSize)
        demuxer["pixel_format"] = try parsed.value(Self.pixelFormat)
        demuxer["framerate"] = try parsed.value(Self.framerate)
        options = VideoSourceOptions(
            timeoutInMilliseconds: try parsed.value(Self.timeout),
            inputFormat: try parsed.value(Self.inputFormat), demuxerOptions: demuxer)
        decoderThreads = try parsed.value(Self.decoderThreads)
    }

    /// The source options, with `--decoder-threads` or else the default: for a live stream 1
    /// (FFmpeg's frame threads hold back about a frame each, late results the live-stream mode
    /// exists to avoid; one thread decodes faster than cameras deliver); otherwise the cores
    /// that `inferenceThreads` (the classifier's `--threads`) leave, 1 to 16 (where FFmpeg's
    /// own automatic count stops).
    func sourceOptions(inferenceThreads: Int, liveStream: Bool) -> VideoSourceOptions {
        var options = self.options
        let cores = ProcessInfo.processInfo.activeProcessorCount
        options.decoderThreadCount = decoderThreads ?? (liveStream ? 1 : min(max(cores - inferenceThreads, 1), 16))
        return options
    }
}
