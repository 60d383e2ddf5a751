import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import VideoInput

/// Opening and releasing sources, successfully or not, must not keep memory. Measured in a
/// process of its own, where no other test allocates.
@Suite("VideoSource resources")
struct VideoSourceLeakTests {
    @Test(
        "opening, decoding a frame and releasing 200 times keeps RSS flat",
        .enabled(if: FFmpegTool.isAvailable, FFmpegTool.missingReason))
    func openAndRelease() async throws {
        // 20 warm-up rounds (allocator pools and FFmpeg's static tables), then two halves of
        // 100 rounds: a leak grows RSS in both.
        let growth = try await ResidentMemory.measuredAlone(filter: "VideoInputTests.VideoSourceLeakTests/openAndRelease") {
            let (directory, remove) = try Clips.temporaryDirectory()
            defer { remove() }
            // 640x480 frames: a leaked decoder or frame would cost megabytes per round.
            let clip = directory.appendingPathComponent("leak.mkv")
            try FFmpegTool.run(["-y", "-f", "lavfi", "-i", "testsrc=size=640x480:rate=10:duration=1", "-c:v", "mpeg4", clip.path])
            let garbage = directory.appendingPathComponent("garbage.mp4")
            try Data(repeating: 0x47, count: 100_000).write(to: garbage)
            return try ResidentMemory.measure(warmUp: 20, rounds: 100) {
                let source = try VideoSource(url: clip.path, options: VideoSourceOptions())
                _ = try #require(try source.nextFrame())
                // Failing initializers must free what they made.
                _ = try? VideoSource(url: garbage.path, options: VideoSourceOptions())
                _ = try? VideoSource(
                    url: "testsrc=size=640x480",
                    options: VideoSourceOptions(inputFormat: "lavfi", demuxerOptions: ["bad_option": "1"]))
            }
        }
        // A leaked decoder costs about 3 MB a round here, a leaked frame 1 MB.
        #expect(
            growth.smallerHalf < 10 << 20,
            "RSS grew by \((growth.middle - growth.start) >> 20) MB, then \((growth.end - growth.middle) >> 20) MB per 100 rounds"
        )
    }
}
