import Foundation
import TestSupport
import Testing

/// A damaged container whose second frame is dated 2^62 s: classify-video classifies it and
/// ends normally (no arithmetic trap in its duration check), with a timestamp in range.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct VideoTimestampOverflowTests {
    @Test func hugeContainerTimeIsClassified() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = Array(try TestData.bytes("images/burger_crop.jpg"))
        let damaged: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 50)
        let clip = folder.appendingPathComponent("huge_time.mkv")
        try Data(
            MatroskaWriter.mjpeg(
                tickNanoseconds: 1_000_000_000, durationInTicks: 10,
                frames: [(0, damaged), (1 << 62, jpeg)], width: 400, height: 325)
        ).write(to: clip)
        let run = try await VisionTasksTool.run(["classify-video", clip.path, "--model", Fixture.quantModel, "--format", "jsonl"])
        #expect(run.status == 0, "\(run)")
        struct Frame: Decodable { let timestampInMilliseconds: Int }
        let frames = run.stdoutLines.filter { $0.contains("timestampInMilliseconds") }
            .compactMap { try? JSONDecoder().decode(Frame.self, from: Data($0.utf8)) }
        #expect(frames.count == 1, "\(run)")
        #expect(frames.allSatisfy { (0..<10_000).contains($0.timestampInMilliseconds) }, "\(run)")
    }
}
