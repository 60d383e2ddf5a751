import Foundation
import VideoInput

/// The video source options the classify-video and live commands share.
enum VideoSourceParsing {
    /// The option names that take a value.
    static let valueOptions: Set<String> = ["input-format", "video-size", "pixel-format", "framerate", "timeout"]

    /// The help lines for those options.
    static let help = """
      --input-format NAME      FFmpeg input format instead of probing: rawvideo (raw frames on a
                               pipe: give --video-size, --pixel-format, --framerate), lavfi,
                               video4linux2 (the default for /dev/video*).
      --video-size WxH         Frame size for rawvideo or a camera.
      --pixel-format NAME      FFmpeg pixel format for rawvideo (e.g. rgb24, nv12, yuyv422).
      --framerate F            Frame rate for rawvideo or a camera.
      --timeout MS             Give up when opening or reading waits longer than MS
                               milliseconds (default 10000).
    """

    /// Source options from the parsed arguments.
    /// - Throws: `UsageError` for a malformed value.
    static func options(_ parsed: ParsedArguments) throws(UsageError) -> VideoSourceOptions {
        var demuxer: [String: String] = [:]
        demuxer["video_size"] = parsed.value("video-size")
        demuxer["pixel_format"] = parsed.value("pixel-format")
        demuxer["framerate"] = parsed.value("framerate")
        return VideoSourceOptions(timeoutInMilliseconds: try parsed.int("timeout", default: 10_000, in: 1...Int(Int32.max)),
                                  inputFormat: parsed.value("input-format"), demuxerOptions: demuxer)
    }
}
