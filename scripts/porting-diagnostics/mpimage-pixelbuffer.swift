// MediaPipe's guide: an MPImage from a CVPixelBuffer (video mode).
// expect: error: 'CVPixelBuffer' is unavailable: CoreVideo does not exist on Linux: pass raw pixels to MPImage(pixels:width:height:bytesPerRow:format:orientation:)
// expect: error: 'init(pixelBuffer:)' is unavailable: CVPixelBuffer does not exist on Linux: use MPImage(pixels:width:height:bytesPerRow:format:orientation:) (format .bgra8 for kCVPixelFormatType_32BGRA)
// expect: error: 'init(pixelBuffer:orientation:)' is unavailable: CVPixelBuffer does not exist on Linux: use MPImage(pixels:width:height:bytesPerRow:format:orientation:)
import VisionTasks

func classify(_ imageClassifier: ImageClassifier, pixelBuffer: CVPixelBuffer, timestamp: Int) throws {
    let image = try MPImage(pixelBuffer: pixelBuffer)
    _ = try imageClassifier.classify(videoFrame: image, timestampInMilliseconds: timestamp)
    let rotated = try MPImage(pixelBuffer: pixelBuffer, orientation: .right)
    _ = try imageClassifier.classify(videoFrame: rotated, timestampInMilliseconds: timestamp + 1)
}
