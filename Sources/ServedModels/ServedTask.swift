import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// A loaded model as the server uses it: one instance processes one image at a time (the
/// server's pool gives each request an instance of its own). Each task's adapter narrows the
/// output by the request's parameters and makes the records every front end shares.
package protocol ServedTask: Sendable {
    /// What the model does, as the server's model list and metadata show it, and the verb of its
    /// v1 route.
    var kind: ServedTaskKind { get }
    /// The Open Inference Protocol output the model answers `infer` with.
    var output: ServedOutput { get }

    /// Why these parameters cannot be served (a locale the model was not loaded with, say), or nil.
    func problem(with parameters: RequestParameters) -> String?

    /// Processes one encoded image (JPEG, PNG or WebP).
    /// - Parameters:
    ///   - image: the encoded bytes.
    ///   - name: what the image is called in its record (a file name or an input element).
    ///   - parameters: the request's options.
    /// - Throws: `TasksError`: invalidArgument for an image that cannot be decoded, outOfRange
    ///   for an output that is not finite (`TaskOutput.failure`), the model's errors; and
    ///   internal when the record cannot be written as JSON.
    func serve(_ image: Data, name: String, parameters: RequestParameters) throws(TasksError) -> ServedImage

    /// A new classifier of the model in MediaPipe's `.video` running mode, for one video
    /// (`VideoClassification`); nil when the model's task has no video mode here.
    /// - Throws: `TasksError` as `ImageClassifier.init(options:)`.
    func videoClassifier() throws(TasksError) -> ImageClassifier?

    /// The model's tensors and metadata, as `inspect` shows them; nil when the model is not one
    /// `.tflite` file (an AutoML export).
    /// - Throws: `TasksError` when the model file cannot be read again.
    func summary() throws(TasksError) -> ModelSummary?
}

extension ServedTask {
    /// Labelers and embedders classify no videos.
    package func videoClassifier() throws(TasksError) -> ImageClassifier? { nil }

    /// A labeler's export is a folder of files: no summary.
    package func summary() throws(TasksError) -> ModelSummary? { nil }
}

/// One served image's outcome.
package struct ServedImage: Sendable {
    /// The image's record as JSON: the command line's object for it (`--format json`).
    package var record: String
    /// The first head's categories, best first, as Triton's classification extension reports them.
    package var ranked: [RankedCategory]
    /// The image's row of the output tensor, for an output of numbers (an embedding).
    package var values: TensorValues?

    package init(record: String, ranked: [RankedCategory] = [], values: TensorValues? = nil) {
        self.record = record
        self.ranked = ranked
        self.values = values
    }

    /// The served form of an outcome that succeeded: its record checked and encoded.
    /// - Throws: `TasksError` the outcome's error (a failed check included), or internal when
    ///   the record cannot be encoded.
    package init<Output: TaskOutput>(
        _ outcome: ImageOutcome<Output>, ranked: [RankedCategory] = [], values: TensorValues? = nil
    ) throws(TasksError) {
        if case .failure(let error) = outcome.result { throw error }
        self.init(record: try JSONText.encode(outcome.record), ranked: ranked, values: values)
    }
}

/// The OIP v2 output of a served model: `classifications`, a BYTES tensor of JSON records
/// shape [B] (classifiers and labelers), or `embedding`, numbers shape [B, D] (embedders).
package struct ServedOutput: Sendable, Equatable {
    /// The output's name.
    package var name: String
    /// "BYTES", "FP32" or "INT8".
    package var datatype: String
    /// The elements per image: nil for one BYTES record per image, D for an embedding of D values.
    package var width: Int?

    package init(name: String, datatype: String, width: Int?) {
        self.name = name
        self.datatype = datatype
        self.width = width
    }

    /// One JSON record per image.
    package static let records = ServedOutput(name: "classifications", datatype: "BYTES", width: nil)
}

/// A category as Triton's classification extension prints it: `"score:index:label"`.
package struct RankedCategory: Sendable, Equatable {
    package var score: Float
    package var index: Int
    package var label: String?

    package init(score: Float, index: Int, label: String?) {
        self.score = score
        self.index = index
        self.label = label
    }

    /// `"<score>:<index>:<label>"`, or `"<score>:<index>"` without a label.
    package var tritonString: String {
        let head = "\(score):\(index)"
        return label.map { "\(head):\($0)" } ?? head
    }
}
