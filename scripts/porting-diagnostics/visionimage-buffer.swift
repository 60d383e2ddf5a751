// ML Kit's guide: a VisionImage from a camera CMSampleBuffer.
// expect: error: 'CMSampleBuffer' is unavailable: CoreMedia does not exist on Linux
// expect: error: 'init(buffer:)' is unavailable: CMSampleBuffer does not exist on Linux: use VisionImage(pixels:width:height:bytesPerRow:format:)
import ImageLabeling

func captureOutput(_ labeler: ImageLabeler, didOutput sampleBuffer: CMSampleBuffer) throws {
    let image = VisionImage(buffer: sampleBuffer)
    image.orientation = .right
    _ = try labeler.results(in: image)
}
