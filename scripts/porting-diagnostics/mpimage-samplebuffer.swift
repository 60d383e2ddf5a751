// MediaPipe's guide: an MPImage from a camera CMSampleBuffer (live-stream mode).
// expect: error: 'CMSampleBuffer' is unavailable: CoreMedia does not exist on Linux: read camera or video frames with VideoInput's VideoSource
// expect: error: 'init(sampleBuffer:)' is unavailable: CMSampleBuffer does not exist on Linux: read camera or video frames with VideoInput's VideoSource (VideoFrame.image is an MPImage)
// expect: error: 'init(sampleBuffer:orientation:)' is unavailable: CMSampleBuffer does not exist on Linux: read camera or video frames with VideoInput's VideoSource
import VisionTasks

func classify(_ imageClassifier: ImageClassifier, sampleBuffer: CMSampleBuffer, timestamp: Int) throws {
    let image = try MPImage(sampleBuffer: sampleBuffer)
    try imageClassifier.classifyAsync(image: image, timestampInMilliseconds: timestamp)
    let oriented = try MPImage(sampleBuffer: sampleBuffer, orientation: .leftMirrored)
    try imageClassifier.classifyAsync(image: oriented, timestampInMilliseconds: timestamp + 1)
}
