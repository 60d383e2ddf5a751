import Foundation
import TestSupport
import Testing

/// Frames less than 1 ms apart round to the same millisecond: classify-video skips the repeats
/// with a warning instead of stopping at MediaPipe's timestamp error.
@Suite("classify-video: repeated timestamps", .enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct RepeatedTimestampTests {
    @Test func framesLessThanAMillisecondApartAreSkippedWithAWarning() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("fast.mp4")
        _ = try await VideoClipMaker.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=1500", "-frames:v", "20",
            "-c:v", "libx264", "-video_track_timescale", "1500", clip.path,
        ])
        let run = try await VisionTasksTool.run([
            "classify-video", clip.path, "--model", VideoClipMaker.model, "--format", "jsonl",
        ])
        #expect(run.status == 0, "\(run)")
        let (frames, _) = try VideoOutput.classifyVideo(run.stdoutLines, context: "\(run)")
        let times = frames.map(\.timestampInMilliseconds)
        #expect(times == Array(Set(times)).sorted(), "strictly increasing: \(times)")
        #expect(times.count == 14, "20 frames over 13.3 ms give 14 distinct milliseconds: \(times)")
        #expect(
            run.diagnostics.contains {
                $0.hasPrefix("warning: \(clip.path): skipped 6 frame(s) whose timestamp did not increase")
            },
            "\(run)")
    }
}
