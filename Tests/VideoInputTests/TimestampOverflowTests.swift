import Foundation
import TestSupport
import Testing
import VideoInput

/// A container time that does not fit in milliseconds (2^62 s) must not become a bogus
/// timestamp (`av_rescale_q` answers INT64_MIN then): it counts as no timestamp.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct TimestampOverflowTests {
    static func clip(in folder: URL) throws -> String {
        let jpeg = Array(try TestData.bytes("images/burger_crop.jpg"))
        let damaged: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 50)
        let bytes = MatroskaWriter.mjpeg(
            tickNanoseconds: 1_000_000_000, durationInTicks: 10,
            frames: [(0, damaged), (1 << 62, jpeg)], width: 400, height: 325)
        let path = folder.appendingPathComponent("huge_time.mkv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func timeBeyondMillisecondsIsNoTimestamp() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try VideoSource(url: Self.clip(in: folder), options: VideoSourceOptions())
        var timestamps: [Int] = []
        while let frame = try source.nextFrame() { timestamps.append(frame.timestampInMilliseconds) }
        #expect(!timestamps.isEmpty)
        #expect(timestamps.allSatisfy { $0 >= 0 && $0 < 10_000 }, "\(timestamps)")
    }
}
