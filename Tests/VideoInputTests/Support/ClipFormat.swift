import Testing

/// A container and codec that test clips are made in, with what `VideoSource` should report.
struct ClipFormat: Sendable, CustomTestStringConvertible {
    /// A short label, such as "MP4/H.264".
    let name: String
    /// The file extension, which tells ffmpeg the container.
    let fileExtension: String
    /// The ffmpeg output options that choose and tune the encoder.
    let codecArguments: [String]
    /// The codec name `VideoSource.codecName` should report.
    let codecName: String

    var testDescription: String { name }

    /// MP4 with H.264 (libx264) when this ffmpeg has it, else MPEG-4 Part 2; the index is at
    /// the front (`+faststart`), so that a cut-off file still opens.
    static var mp4: ClipFormat {
        FFmpegTool.encoders.contains("libx264")
            ? ClipFormat(
                name: "MP4/H.264", fileExtension: "mp4",
                codecArguments: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"],
                codecName: "h264")
            : ClipFormat(
                name: "MP4/MPEG-4", fileExtension: "mp4",
                codecArguments: ["-c:v", "mpeg4", "-q:v", "3", "-pix_fmt", "yuv420p", "-movflags", "+faststart"],
                codecName: "mpeg4")
    }

    /// WebM with VP9 (libvpx-vp9, fast real-time settings).
    static let webm = ClipFormat(
        name: "WebM/VP9", fileExtension: "webm",
        codecArguments: [
            "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
            "-b:v", "0", "-crf", "30", "-pix_fmt", "yuv420p",
        ],
        codecName: "vp9")

    /// Matroska with MPEG-4 Part 2 (FFmpeg's own encoder, present in every build).
    static let mkv = ClipFormat(
        name: "MKV/MPEG-4", fileExtension: "mkv",
        codecArguments: ["-c:v", "mpeg4", "-q:v", "3", "-pix_fmt", "yuv420p"],
        codecName: "mpeg4")

    /// The formats whose encoders this ffmpeg has.
    static var all: [ClipFormat] {
        [mp4, webm, mkv].filter { format in
            let encoder = format.codecArguments[format.codecArguments.firstIndex(of: "-c:v")! + 1]
            return FFmpegTool.encoders.isEmpty || FFmpegTool.encoders.contains(encoder)
        }
    }
}
