import Foundation
import Imaging
import TestSupport
import Testing
import VideoInput

/// Video frames convert to RGB exactly as `ffmpeg -pix_fmt rgb24` converts them (FFmpeg's
/// default flags; OpenCV's `VideoCapture` gives the same frames), for BT.601 and BT.709 streams
/// in limited and full range, each tagged in the stream. Four 224x224 H.264 clips (30 frames of
/// three shared photos, panning) are made at test time; each decoded frame is read through the
/// preprocessing at its own size (an exact copy of the converted pixels) and compared with
/// FFmpeg's frames: identical (`YUVRounding.truncatedTerms`); and, as a control, within 3
/// levels of libswscale's exact path (`-sws_flags neighbor+accurate_rnd+full_chroma_int+bitexact`,
/// which still-image YUV follows). `scripts/compare-video-colour` prints the figures, OpenCV's
/// frames and classification included; with `SVT_VIDEO_COLOUR_DIR` set, this test leaves the
/// clips and our frames there.
@Suite(.enabled(if: FFmpegTool.isAvailable && TestData.isAvailable, FFmpegTool.missingReason))
struct VideoColourTests {
    struct Clip: Sendable, CustomTestStringConvertible {
        /// FFmpeg's names: the matrix for `scale`, the stream's colour space, primaries and
        /// transfer tags, and the range (`tv` limited, `pc` full).
        let matrix: String, colorspace: String, primaries: String, transfer: String, range: String
        var name: String { "clip_\(matrix)_\(range)" }
        var testDescription: String { name }
    }

    static let clips = [
        Clip(matrix: "bt601", colorspace: "smpte170m", primaries: "bt470bg", transfer: "smpte170m", range: "tv"),
        Clip(matrix: "bt709", colorspace: "bt709", primaries: "bt709", transfer: "bt709", range: "tv"),
        Clip(matrix: "bt601", colorspace: "smpte170m", primaries: "bt470bg", transfer: "smpte170m", range: "pc"),
        Clip(matrix: "bt709", colorspace: "bt709", primaries: "bt709", transfer: "bt709", range: "pc"),
    ]
    static let size = 224
    static let frameCount = 30

    /// Makes the clip: 10 frames of each photo at 10 fps, a 224x224 window panning across it.
    static func make(_ clip: Clip, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("\(clip.name).mp4")
        let photos = ["burger.jpg", "sparrow.jpg", "cats_and_dogs.jpg"]
        let inputs = photos.flatMap { ["-framerate", "10", "-loop", "1", "-t", "1", "-i", TestData.image($0).path] }
        let pans = photos.indices.map { index in
            "[\(index)]scale=-2:260,crop=224:224:'mod(n*9+\(index == 1 ? 200 : 0),iw-224)':'mod(n*3,ih-224)',setsar=1[p\(index)]"
        }
        let graph =
            pans.joined(separator: ";") + ";[p0][p1][p2]concat=n=3:v=1,"
            + "scale=out_color_matrix=\(clip.matrix):out_range=\(clip.range),format=yuv420p"
        try FFmpegTool.run(
            ["-y"] + inputs + [
                "-filter_complex", graph, "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
                "-colorspace", clip.colorspace, "-color_primaries", clip.primaries, "-color_trc", clip.transfer,
                "-color_range", clip.range, url.path,
            ])
        return url
    }

    /// FFmpeg's RGB frames of the clip, with extra options (such as `-sws_flags`).
    static func ffmpegFrames(_ clip: URL, options: [String] = []) throws -> [[UInt8]] {
        let output = clip.deletingPathExtension().appendingPathExtension("rgb")
        defer { try? FileManager.default.removeItem(at: output) }
        try FFmpegTool.run(["-y", "-i", clip.path] + options + ["-f", "rawvideo", "-pix_fmt", "rgb24", output.path])
        let bytes = [UInt8](try Data(contentsOf: output))
        let frameBytes = size * size * 3
        return stride(from: 0, to: bytes.count, by: frameBytes).map { Array(bytes[$0..<min($0 + frameBytes, bytes.count)]) }
    }

    /// Our RGB frames: each decoded frame sampled at its own size (an exact copy).
    static func ourFrames(_ clip: URL) throws -> [[UInt8]] {
        let source = try VideoSource(url: clip.path)
        var frames: [[UInt8]] = []
        while let frame = try source.nextFrame() {
            var rgb = [UInt8](repeating: 0, count: size * size * 3)
            try rgb.withUnsafeMutableBytes {
                try ImagePreprocessor.preprocess(frame.pixels, into: $0, width: size, height: size, element: .uint8)
            }
            frames.append(rgb)
        }
        return frames
    }

    /// The largest and the mean absolute difference over all frames' bytes.
    static func difference(_ ours: [[UInt8]], _ theirs: [[UInt8]]) -> (max: Int, mean: Double) {
        var (largest, total, count) = (0, 0, 0)
        for (a, b) in zip(ours, theirs) {
            for (x, y) in zip(a, b) {
                let d = abs(Int(x) - Int(y))
                largest = max(largest, d)
                total += d
            }
            count += a.count
        }
        return (largest, Double(total) / Double(max(count, 1)))
    }

    @Test(arguments: clips)
    func framesMatchFFmpeg(_ clip: Clip) throws {
        try #require(FFmpegTool.encoders.isEmpty || FFmpegTool.encoders.contains("libx264"), "ffmpeg lacks libx264")
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let url = try Self.make(clip, in: directory)
        let ours = try Self.ourFrames(url)
        #expect(ours.count == Self.frameCount)
        let plain = try Self.ffmpegFrames(url)
        #expect(plain.count == ours.count)
        let plainDifference = Self.difference(ours, plain)
        #expect(plainDifference.max == 0, "ffmpeg -pix_fmt rgb24: \(plainDifference)")
        let exact = try Self.ffmpegFrames(url, options: ["-sws_flags", "neighbor+accurate_rnd+full_chroma_int+bitexact"])
        #expect(exact.count == ours.count)
        let exactDifference = Self.difference(ours, exact)
        #expect(
            exactDifference.max <= 3 && exactDifference.mean > 0.3 && exactDifference.mean < 1.5,
            "libswscale's exact path: \(exactDifference)")
        try Self.keep(clip, url, ours)
    }

    /// Leaves the clip and our frames in `SVT_VIDEO_COLOUR_DIR`, for scripts/compare-video-colour.
    static func keep(_ clip: Clip, _ url: URL, _ frames: [[UInt8]]) throws {
        guard let kept = ProcessInfo.processInfo.environment["SVT_VIDEO_COLOUR_DIR"] else { return }
        let folder = URL(fileURLWithPath: kept)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(url.lastPathComponent))
        try FileManager.default.copyItem(at: url, to: folder.appendingPathComponent(url.lastPathComponent))
        try Data(frames.joined()).write(to: folder.appendingPathComponent("\(clip.name).ours.rgb"))
    }
}
