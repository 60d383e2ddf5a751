import Foundation
import Imaging
import TestSupport
import Testing
import VideoInput
import VisionTasks

/// Decoded frames classified in MediaPipe's video running mode, straight from `VideoFrame.image`.
@Suite("Video frames through ImageClassifier", .enabled(if: Clips.canMake, Clips.missingReason))
struct VideoClassificationTests {
    static let model = "mobilenet_v1_0.25_224_quant.tflite"

    static func classifier(_ mode: RunningMode) throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(model).path
        options.runningMode = mode
        options.maxResults = 3
        return try ImageClassifier(options: options)
    }

    /// A 1 s H.264 clip (10 frames) of burger.jpg encoded with the BT.709 matrix and tagged so,
    /// as HD video is: the frames arrive as BT.709 I420 and classify like the RGB picture.
    @Test(
        "a BT.709 H.264 clip classified in video mode gives the RGB picture's top category, frame by frame",
        .enabled(if: FFmpegTool.encoders.isEmpty || FFmpegTool.encoders.contains("libx264"), "ffmpeg lacks libx264"))
    func bt709Clip() throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let clip = directory.appendingPathComponent("bt709.mp4")
        try FFmpegTool.run([
            "-y", "-loop", "1", "-framerate", "10", "-t", "1", "-i", TestData.image("burger.jpg").path,
            "-vf",
            "scale=\(Clips.width):\(Clips.height),setsar=1,format=rgb24,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p",
            "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", clip.path,
        ])
        let picture = try Clips.reference("burger.jpg", in: directory)
        let expected = try Self.classifier(.image).classify(image: MPImage(pixels: picture, orientation: .up))
            .classificationResult.classifications[0].categories
        try #require(expected.first?.categoryName == "cheeseburger")

        let classifier = try Self.classifier(.video)
        let source = try VideoSource(url: clip.path)
        var frames = 0
        while let frame = try source.nextFrame() {
            frames += 1
            #expect(frame.pixels.format == .i420 && frame.pixels.colorMatrix == .bt709 && frame.pixels.colorRange == .video)
            let result = try classifier.classify(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
            #expect(result.timestampInMilliseconds == frame.timestampInMilliseconds)
            let top = result.classificationResult.classifications[0].categories.first
            #expect(
                top?.index == expected.first?.index,
                "\(top?.categoryName ?? "none") at \(frame.timestampInMilliseconds) ms instead of \(expected.first?.categoryName ?? "none")"
            )
            let difference = abs((top?.score ?? 0) - (expected.first?.score ?? 1))
            #expect(
                difference < 0.05,
                "top score \(top?.score ?? 0) vs RGB \(expected.first?.score ?? 0) at \(frame.timestampInMilliseconds) ms")
        }
        #expect(frames == 10)
    }
}
