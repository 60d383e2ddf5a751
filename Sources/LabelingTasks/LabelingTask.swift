import Foundation
import ImageLabeling
import ImageTasks
import TasksCommon

/// `label`: ML Kit's `ImageLabeler` (AutoML export, custom model or downloaded remote model).
package struct LabelingTask: ImageTask {
    package let labeler: ImageLabeler

    /// - Throws: as `ImageLabeler.init(options:)`.
    package init(options: CommonImageLabelerOptions) throws(TasksError) {
        do {
            labeler = try ImageLabeler(options: options)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    package func process(file path: FileSystemPath) throws(TasksError) -> LabelingOutput {
        try label { () throws(TasksError) in try VisionImage(contentsOfFile: path) }
    }

    package func process(encoded data: Data) throws(TasksError) -> LabelingOutput {
        try label { () throws(TasksError) in
            do { return try VisionImage(data: data) } catch { throw TasksError.wrapping(error) }
        }
    }

    private func label(_ image: () throws(TasksError) -> VisionImage) throws(TasksError) -> LabelingOutput {
        let image = try image()
        do {
            return LabelingOutput(labels: try labeler.results(in: image))
        } catch {
            throw TasksError.wrapping(error)
        }
    }
}

/// One image's labels, highest confidence first.
package struct LabelingOutput: TaskOutput {
    package var labels: [ImageLabel]

    package init(labels: [ImageLabel]) { self.labels = labels }

    package static let recordKey = "labels"

    package var record: [LabelRecord] { labels.map(LabelRecord.init) }

    /// The first label whose confidence is not finite.
    package var failure: TasksError? {
        guard let label = labels.first(where: { !$0.confidence.isFinite }) else { return nil }
        return TasksError(
            .outOfRangeError,
            "label \(label.index) (\(label.text)) has a non-finite confidence (\(label.confidence)); "
                + "the model's output is not a probability.")
    }
}

/// ML Kit's `ImageLabel`: text, confidence, index.
package struct LabelRecord: Codable, Equatable, Sendable {
    package let text: String
    package let confidence: Float
    package let index: Int

    package init(_ label: ImageLabel) {
        (text, confidence, index) = (label.text, label.confidence, label.index)
    }
}
