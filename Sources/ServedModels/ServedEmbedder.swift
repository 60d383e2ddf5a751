import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// An embedder for the server: an `ImageEmbedder` with one output head. `infer` answers with the
/// output `embedding`, FP32 (INT8 when quantized) of shape [B, D]; `/v1/models/NAME/embed` with
/// `embed --format json`'s records. Requests take no classification parameters.
package struct ServedEmbedder: ServedTask {
    let task: EmbeddingTask
    package let output: ServedOutput
    /// The model file, for `summary()`.
    let path: String

    /// - Parameter dimension: the model's embedding size (`ImageEmbedder.embeddingDimensions`).
    /// - Throws: `TasksError` as `ImageEmbedder.init(options:)`; invalidArgument for a model
    ///   with several output heads (one OIP output holds one embedding per image).
    package init(path: String, threads: Int, l2Normalize: Bool, quantize: Bool) throws(TasksError) {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = path
        options.baseOptions.threadCount = threads
        options.l2Normalize = l2Normalize
        options.quantize = quantize
        // The /v1 records say what made them, as `embed`'s do, so that a client can keep them for `similar`.
        task = try EmbeddingTask(options: options, processing: ImageProcessing(), recordingSources: true)
        let dimensions = task.embedder.embeddingDimensions
        guard dimensions.count == 1 else {
            throw .invalidArgument(
                "The model has \(dimensions.count) output heads; serving embeds with models of one output.",
                subject: .file(path))
        }
        output = ServedOutput(name: "embedding", datatype: quantize ? "INT8" : "FP32", width: dimensions[0])
        self.path = path
    }

    package func summary() throws(TasksError) -> ModelSummary? { try ModelSummary(modelAt: path, servedLocale: nil) }

    package var kind: ServedTaskKind { .embedder }

    package func problem(with parameters: RequestParameters) -> String? {
        parameters.narrowsCategories
            ? "An embedder takes no classification parameters (max_results, score_threshold, category lists, locale)." : nil
    }

    package func serve(_ image: Data, name: String, parameters: RequestParameters) throws(TasksError) -> ServedImage {
        let outcome = ImageOutcome(
            path: FileSystemPath(name), result: Result { () throws(TasksError) in try task.process(encoded: image) })
        return try ServedImage(outcome, values: (try? outcome.result.get())?.firstRow)
    }
}
