import Foundation
import Testing
import VideoInput
import VisionTasks

// What a program that depends on the `VideoInput` and `VisionTasks` products can write: these
// tests use only their public API (no `@testable`, no `package` declarations, no TestSupport).

/// The shared test data (`SWIFT_VISION_TASKS_TESTDATA`, else `../shared/testdata` beside the
/// package), or nil.
private let testData: URL? = {
    let url =
        ProcessInfo.processInfo.environment["SWIFT_VISION_TASKS_TESTDATA"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/testdata")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("models").path) ? url : nil
}()

private let missingTestData: Comment =
    "shared test data not found: set SWIFT_VISION_TASKS_TESTDATA or place it at ../shared/testdata"

/// A classifier in `mode` with the quantized MobileNet.
private func classifier(_ mode: RunningMode) throws -> ImageClassifier {
    let options = ImageClassifierOptions()
    options.baseOptions.modelAssetPath = testData!.appendingPathComponent("models/mobilenet_v1_0.25_224_quant.tflite").path
    options.runningMode = mode
    options.maxResults = 3
    return try ImageClassifier(options: options)
}

@Suite("VideoInput's public API, with VisionTasks")
struct VideoInputPublicAPITests {
    @Test("a lavfi source decodes without a file: size, codec and millisecond timestamps")
    func lavfiSource() throws {
        let options = VideoSourceOptions(timeoutInMilliseconds: 5_000, inputFormat: "lavfi")
        #expect(options != VideoSourceOptions())
        let source = try VideoSource(url: "testsrc=size=64x48:rate=10:duration=1", options: options)
        #expect((source.width, source.height) == (64, 48))
        #expect(source.codecName == "rawvideo")
        #expect(source.url == "testsrc=size=64x48:rate=10:duration=1")
        var timestamps: [Int] = []
        while let frame = try source.nextFrame() {
            #expect((frame.image.width, frame.image.height) == (64, 48))
            #expect(frame.image.orientation == .up)
            timestamps.append(frame.timestampInMilliseconds)
        }
        #expect(timestamps == (0..<10).map { $0 * 100 })
        #expect(try source.nextFrame() == nil)
        #expect(source.damagedPacketCount == 0)
    }

    @Test(
        "frames go straight into ImageClassifier's video mode; a photo read as a video classifies like the photo",
        .enabled(if: testData != nil, missingTestData))
    func classifyVideoFrames() throws {
        let photo = testData!.appendingPathComponent("images/burger.jpg")
        let expected = try classifier(.image).classify(image: MPImage(contentsOf: photo))
            .classificationResult.classifications[0].categories

        // A JPEG file is a one-frame MJPEG video to FFmpeg.
        let source = try VideoSource(url: photo.path)
        #expect(source.codecName == "mjpeg")
        let frame = try #require(try source.nextFrame())
        #expect(try source.nextFrame() == nil)
        let video = try classifier(.video)
        let result = try video.classify(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
        #expect(result.timestampInMilliseconds == frame.timestampInMilliseconds)
        let categories = result.classificationResult.classifications[0].categories
        #expect(
            categories.first?.index == expected.first?.index,
            "\(categories.first?.categoryName ?? "none") instead of \(expected.first?.categoryName ?? "none")")
        #expect(categories.first?.categoryName == "cheeseburger")
        // libjpeg-turbo's and FFmpeg's JPEG decoders differ by a few levels: close, not equal.
        #expect(abs((categories.first?.score ?? 0) - (expected.first?.score ?? 1)) < 0.1)

        // A moving test pattern, frame after frame with the container's timestamps.
        let pattern = try VideoSource(
            url: "testsrc2=size=160x120:rate=25:duration=0.4",
            options: VideoSourceOptions(inputFormat: "lavfi"))
        var last = -1
        while let frame = try pattern.nextFrame() {
            let result = try video.classify(
                videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds + 1000)
            #expect(result.timestampInMilliseconds == frame.timestampInMilliseconds + 1000)
            #expect(frame.timestampInMilliseconds > last)
            last = frame.timestampInMilliseconds
        }
        #expect(last == 360)
    }

    @Test("frames are Sendable values that outlive their source")
    func framesOutliveTheSource() async throws {
        var source: VideoSource? = try VideoSource(
            url: "testsrc=size=32x24:rate=5:duration=1",
            options: VideoSourceOptions(inputFormat: "lavfi"))
        let frame = try #require(try source?.nextFrame())
        source = nil
        let width = await Task.detached { frame.image.width }.value
        #expect(width == 32)
    }

    @Test(
        "errors are TasksErrors with MediaPipe's codes and the source as subject",
        arguments: [
            ("/nonexistent/clip.mp4", VideoSourceOptions(), TasksErrorCode.notFoundError),
            ("clip.mp4", VideoSourceOptions(timeoutInMilliseconds: 0), .invalidArgumentError),
            ("testsrc", VideoSourceOptions(inputFormat: "no-such-format"), .invalidArgumentError),
            ("testsrc", VideoSourceOptions(inputFormat: "lavfi", demuxerOptions: ["no_such_option": "1"]), .invalidArgumentError),
        ])
    func errors(url: String, options: VideoSourceOptions, code: TasksErrorCode) {
        do {
            _ = try VideoSource(url: url, options: options)
            Issue.record("expected \(code) for \(url)")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.subject == .videoSource(url), "\(error)")
            #expect(error.message == "\(url): \(error.reason)", "the message names the source once: \(error.message)")
            #expect(!error.reason.contains(url), "the reason repeats the source: \(error.reason)")
        }
    }
}
