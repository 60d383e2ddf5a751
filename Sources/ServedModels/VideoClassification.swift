import Foundation
import ImageTasks
import TasksCommon
import VideoInput
import VideoTasks
import VisionTasks

/// A video classified in MediaPipe's video running mode, as the server's
/// `POST /v1/models/NAME/classify-video` does it on the video runner (`VideoFrameRunner`):
/// frames sampled at a fixed interval, each classified with its container timestamp, narrowed
/// by the request's parameters, and the spans of the top category over time (those of
/// classify-video's summary and report timeline).
package enum VideoClassification {
    /// What an uploaded video may be.
    package struct Limits: Sendable, Equatable {
        /// The longest video, in milliseconds (the container's duration, or the last frame's timestamp).
        package var maxDurationMilliseconds = 60_000
        /// The time between two classified frames, in milliseconds (frames in between are skipped).
        package var frameIntervalMilliseconds = 200

        package init() {}
    }

    /// One classified frame: its timestamp and `classify --format json`'s classifications.
    package struct Frame: Encodable, Sendable {
        /// The frame's presentation time in the container, in milliseconds.
        package let timestampInMilliseconds: Int
        /// Per head, the categories the request's parameters kept, best first.
        package let classifications: [HeadRecord]
    }

    /// Every classified frame, the spans and the video's duration.
    package struct Outcome: Encodable, Sendable {
        /// The classified frames, in time order.
        package let frames: [Frame]
        /// The runs of frames with the same top category (of the first head).
        package let spans: [CategorySpans.Span]
        /// The container's duration in milliseconds, or nil when it does not say.
        package let durationInMilliseconds: Int?
    }

    /// Classifies the video at `path`.
    /// - Parameters:
    ///   - path: a video file: MP4 or MOV, Matroska or WebM, AVI (no other container is opened).
    ///   - classifier: a classifier in `.video` running mode, used for this video only.
    ///   - parameters: the request's narrowing options (as `ServedClassifier.narrow`).
    ///   - limits: the duration limit and the sampling interval.
    ///   - progress: called after each classified frame with the fraction of the video done, 0...1.
    /// - Throws: `TasksError`: the source's errors (invalidArgument for data FFmpeg cannot read
    ///   or another container, a playlist say),
    ///   invalidArgument for a video longer than the limit, the classifier's errors.
    package static func run(
        videoAt path: String, classifier: ImageClassifier, parameters: RequestParameters, limits: Limits,
        progress: (Double) -> Void
    ) throws(TasksError) -> Outcome {
        let runner = try VideoFrameRunner(
            url: path, options: uploadOptions,
            configuration: VideoRunConfiguration(sampling: .interval(milliseconds: limits.frameIntervalMilliseconds)))
        let duration = runner.source.durationInMilliseconds
        if let duration, duration > limits.maxDurationMilliseconds { throw tooLong(duration, limits) }
        var frames: [Frame] = []
        var spans = CategorySpans()
        let end = runner.run(classifier) { frame throws(TasksError) in
            let time = frame.timestampInMilliseconds
            if time > limits.maxDurationMilliseconds { throw tooLong(time, limits) }
            let heads = try narrow(try frame.result.get(), parameters: parameters)
            frames.append(Frame(timestampInMilliseconds: time, classifications: heads.map(HeadRecord.init)))
            spans.add(top: heads.first?.categories.first, at: time)
            progress(duration.map { min(Double(time) / Double(max($0, 1)), 1) } ?? 0)
        }
        if let failure = end.failure { throw failure }
        return Outcome(frames: frames, spans: spans.spans, durationInMilliseconds: duration)
    }

    /// Only container demuxers and the file protocol: a playlist or concat file (HLS, `ffconcat`)
    /// uploaded as a "video" would otherwise make FFmpeg open the paths or URLs it lists, reading
    /// the server's files or reaching its network.
    static let uploadOptions = VideoSourceOptions(
        demuxerOptions: ["format_whitelist": "mov,matroska,avi", "protocol_whitelist": "file"], decoderThreadCount: 1)

    /// A frame's heads narrowed by the request's parameters.
    /// - Throws: outOfRange for a non-finite score, the narrowing's errors.
    private static func narrow(
        _ result: ImageClassifierResult, parameters: RequestParameters
    ) throws(TasksError) -> [Classifications] {
        let output = ClassificationOutput(heads: result.classificationResult.classifications)
        if let failure = output.failure { throw failure }
        return try ServedClassifier.narrow(output.heads, parameters: parameters)
    }

    private static func tooLong(_ milliseconds: Int, _ limits: Limits) -> TasksError {
        .invalidArgument(
            String(
                format: "The video lasts at least %.1f s; videos of at most %d s are classified here.",
                Double(milliseconds) / 1000, limits.maxDurationMilliseconds / 1000))
    }
}
