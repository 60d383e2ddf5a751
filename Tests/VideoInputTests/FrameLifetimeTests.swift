import Foundation
import TestSupport
import Testing
import VideoInput
import VisionTasks

/// Frames read the decoder's pictures in place (a reference of their own to FFmpeg's buffers):
/// they must stay valid and unchanged while the source decodes on, after it is released, and
/// on other threads.
@Suite("Frames kept past their source", .enabled(if: Clips.canMake, Clips.missingReason))
struct FrameLifetimeTests {
    /// A clip format with the decoder threads that decode it.
    struct Case: Sendable, CustomTestStringConvertible {
        let format: ClipFormat
        let decoderThreads: Int

        var testDescription: String { "\(format.name), \(decoderThreads) decoder thread(s)" }
    }

    static let cases = ClipFormat.all.flatMap { format in [1, 4].map { Case(format: format, decoderThreads: $0) } }

    static func classifier() throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
        options.maxResults = 3
        return try ImageClassifier(options: options)
    }

    @Test(
        "all 40 frames kept, the source released: same bytes, and the same results on 4 threads at once",
        arguments: cases)
    func keptFrames(_ testCase: Case) async throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let clip = try Clips.movingPattern(testCase.format, in: directory)
        let classifier = try Self.classifier()
        var frames: [VideoFrame] = []
        var bytes: [[UInt8]] = []
        var expected: [[Classifications]] = []
        var source: VideoSource? = try VideoSource(
            url: clip.path, options: VideoSourceOptions(decoderThreadCount: testCase.decoderThreads))
        while let frame = try source?.nextFrame() {
            frames.append(frame)
            bytes.append(frame.pixels.bytes)
            expected.append(try classifier.classify(image: frame.image).classificationResult.classifications)
        }
        source = nil
        try #require(frames.count == 40)
        let changed = frames.indices.filter { frames[$0].pixels.bytes != bytes[$0] }
        #expect(changed.isEmpty, "frames changed after later decoding and the source's release: \(changed)")

        // Each thread classifies every frame, from a different starting point (image mode:
        // the synthetic timestamps differ, the classifications must not).
        let kept = frames
        let results = try await withThrowingTaskGroup(of: [[Classifications]].self) { group in
            for start in stride(from: 0, to: 40, by: 10) {
                group.addTask {
                    let own = try Self.classifier()
                    return try (0..<kept.count).map { step in
                        try own.classify(image: kept[(start + step) % kept.count].image).classificationResult.classifications
                    }.rotated(by: kept.count - start)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        for result in results {
            let mismatches = result.indices.filter { result[$0] != expected[$0] }
            #expect(mismatches.isEmpty, "frames classified differently after the source's release: \(mismatches)")
        }
    }

    /// FFmpeg leaves the blocks of a damaged picture it could not decode as the buffer held
    /// them before; a frame must still be one picture, whatever the app does with earlier ones.
    @Test("a damaged MJPEG frame's pixels do not depend on whether the earlier frames are still held")
    func damagedFramesIndependentOfHeldFrames() throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let clip = directory.appendingPathComponent("damaged.avi")
        try FFmpegTool.run([
            "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-frames:v", "8", "-c:v", "mjpeg",
            "-pix_fmt", "yuvj420p", clip.path,
        ])
        try Data(Self.zeroingSecondHalfOfOddPictures(Array(try Data(contentsOf: clip)))).write(to: clip)
        var lumaStride = 0
        func decode(holdingFrames: Bool) throws -> [[UInt8]] {
            var held: [VideoFrame] = []
            var bytes: [[UInt8]] = []
            let source = try VideoSource(url: clip.path, options: VideoSourceOptions(decoderThreadCount: 1))
            while let frame = try source.nextFrame() {
                bytes.append(frame.pixels.bytes)
                lumaStride = frame.pixels.bytesPerRow
                if holdingFrames { held.append(frame) }
            }
            return bytes
        }
        let whileHolding = try decode(holdingFrames: true), oneAtATime = try decode(holdingFrames: false)
        try #require(whileHolding.count == 8 && oneAtATime.count == 8)
        let differing = (0..<8).filter { whileHolding[$0] != oneAtATime[$0] }
        // Frames held leave the decoder other buffers; decoding into cleared buffers makes the
        // blocks it skips zeros either way (without it, frames 1, 3, 5 and 7 differed).
        #expect(differing.isEmpty, "frames whose pixels depend on the frames held before them: \(differing)")
        // The damage is there: the second half of odd pictures is the cleared buffer's zeros.
        let lastLumaRow = (lumaStride * 239)..<(lumaStride * 239 + 320)
        #expect(whileHolding[1][lastLumaRow].allSatisfy { $0 == 0 }, "the undecoded bottom row of picture 1 is cleared")
        #expect(whileHolding[0][lastLumaRow].contains { $0 != 0 }, "picture 0 is whole")
    }

    /// `file` (an MJPEG AVI) with the second half of the scan of every other JPEG picture
    /// (from the second on) zeroed: pictures FFmpeg decodes only in part.
    static func zeroingSecondHalfOfOddPictures(_ file: [UInt8]) -> [UInt8] {
        var bytes = file
        let starts = (0..<(bytes.count - 2)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD8 && bytes[$0 + 2] == 0xFF }
        for (number, start) in starts.enumerated() where number % 2 == 1 {
            let limit = number + 1 < starts.count ? starts[number + 1] : bytes.count
            guard let end = (start..<(limit - 1)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 }) else { continue }
            let middle = start + (end - start) / 2
            bytes.replaceSubrange(middle..<end, with: repeatElement(0, count: end - middle))
        }
        return bytes
    }
}

extension Array {
    /// The elements from `offset` on, then the ones before it.
    fileprivate func rotated(by offset: Int) -> [Element] {
        let split = offset % Swift.max(count, 1)
        return Array(self[split...] + self[..<split])
    }
}
