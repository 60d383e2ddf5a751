import Foundation
import TasksCommon
import TestSupport
import Testing
@testable import VideoInput

/// Opening and releasing sources, successfully or not, must not keep memory.
@Suite("VideoSource resources")
struct VideoSourceLeakTests {
    /// The resident set size of this process in bytes (`/proc/self/statm`).
    static func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return Int(fields[1])! * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test("opening, decoding a frame and releasing 200 times keeps RSS flat",
          .enabled(if: FFmpegTool.isAvailable, FFmpegTool.missingReason))
    func openAndRelease() throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        // 640x480 frames: a leaked decoder or frame would cost megabytes per round.
        let clip = directory.appendingPathComponent("leak.mkv")
        try FFmpegTool.run(["-y", "-f", "lavfi", "-i", "testsrc=size=640x480:rate=10:duration=1", "-c:v", "mpeg4", clip.path])
        let garbage = directory.appendingPathComponent("garbage.mp4")
        try Data(repeating: 0x47, count: 100_000).write(to: garbage)

        func round() throws {
            let source = try VideoSource(url: clip.path, options: VideoSourceOptions())
            _ = try #require(try source.nextFrame())
            // Failing initializers must free what they made.
            _ = try? VideoSource(url: garbage.path, options: VideoSourceOptions())
            _ = try? VideoSource(url: "testsrc=size=640x480", options: VideoSourceOptions(inputFormat: "lavfi", demuxerOptions: ["bad_option": "1"]))
        }
        for _ in 0..<20 { try round() }  // warm up allocator pools and FFmpeg's static tables
        // Two halves of 100 rounds: a leak grows RSS in both, while allocations of tests
        // running in parallel in this process rarely land in both.
        let start = try Self.residentBytes()
        for _ in 0..<100 { try round() }
        let middle = try Self.residentBytes()
        for _ in 0..<100 { try round() }
        let end = try Self.residentBytes()
        let growth = min(middle - start, end - middle)
        // A leaked decoder costs about 3 MB a round here, a leaked frame 1 MB.
        #expect(growth < 10 << 20, "RSS grew by \((middle - start) >> 20) MB, then \((end - middle) >> 20) MB per 100 rounds")
    }
}
