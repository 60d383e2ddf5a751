import Foundation
import Imaging
import LiteRT
import TFLiteMetadata
import TasksCommon

/// Everything a classifier needs from its options, copied at creation.
package struct ClassifierConfiguration: Sendable {
    /// The model.
    package var asset: ModelAsset
    /// CPU threads for inference, at least 1.
    package var threadCount: Int
    /// The display-names locale ("en" when the user gave none).
    package var displayNamesLocale: String
    /// Top-k per head; negative means all; 0 is rejected.
    package var maxResults: Int
    /// Scores below this are dropped.
    package var scoreThreshold: ScoreThreshold
    /// Category names to keep (empty: all).
    package var categoryAllowlist: [String]
    /// Category names to drop.
    package var categoryDenylist: [String]
    /// Category names that replace the model's own for its single head (ML Kit's AutoML `dict.txt`).
    package var labelOverride: LabelOverride?

    /// MediaPipe's mobile default thread count: half the active cores, at least 1 and at most 4.
    package static var defaultThreadCount: Int {
        min(max(ProcessInfo.processInfo.activeProcessorCount / 2, 1), 4)
    }

    package init(
        asset: ModelAsset, threadCount: Int, displayNamesLocale: String = "en", maxResults: Int = -1,
        scoreThreshold: ScoreThreshold = .value(0), categoryAllowlist: [String] = [],
        categoryDenylist: [String] = [], labelOverride: LabelOverride? = nil
    ) {
        self.asset = asset
        self.threadCount = threadCount
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
        self.labelOverride = labelOverride
    }
}

/// Where the score threshold comes from.
package enum ScoreThreshold: Sendable, Equatable {
    /// This value (MediaPipe always sets one).
    case value(Float)
    /// The model metadata's ScoreThresholdingOptions for the first head, else this value
    /// (ML Kit's custom models with no `confidenceThreshold`).
    case metadataOr(Float)
}

/// Labels that replace a single-head model's own, read from a file the caller names.
package struct LabelOverride: Sendable {
    /// One label per category, in output order.
    package var labels: [String]
    /// The file they came from, the subject of a mismatch error.
    package var file: String

    package init(labels: [String], file: String) {
        self.labels = labels
        self.file = file
    }
}

/// The classification pipeline shared by `ImageClassifier` and the ML Kit image labeler:
/// model contract checked at creation, then per image preprocessing straight into the input
/// tensor and inference (`ImageModelRunner`, shared with `EmbedderEngine`), and postprocessing
/// of every head.
///
/// Not `Sendable` and not reentrant (it owns LiteRT buffers); the task types serialize calls.
package final class ClassifierEngine {
    private let runner: ImageModelRunner
    package let heads: [ClassificationHead]
    private let postprocessor: ClassificationPostprocessor
    /// The model file, the subject of errors; nil for a model given in memory.
    private let subject: TasksError.Subject?
    /// The scores and sort keys of the head being postprocessed.
    private let postprocessing: PostprocessingBuffers

    /// Loads, checks and compiles the model.
    /// - Throws: `TasksError` for an unreadable or invalid model and MediaPipe's errors for
    ///   unsupported inputs/outputs, metadata and options; each names the model file as its
    ///   subject (unless a more precise one, such as a labels file, is named).
    package init(_ configuration: ClassifierConfiguration) throws(TasksError) {
        let asset = configuration.asset
        do throws(TasksError) {
            let loaded = try LoadedImageModel(bytes: asset.bytes, modelKind: "Image classification")
            var heads = try ClassifierEngine.heads(
                model: loaded.model, subgraph: loaded.subgraph, files: loaded.file.associatedFiles,
                locale: configuration.displayNamesLocale)
            if let override = configuration.labelOverride {
                try ClassifierEngine.replaceLabels(of: &heads, with: override)
            }
            self.heads = heads
            postprocessing = PostprocessingBuffers(categoryCount: heads.map(\.categoryCount).max() ?? 0)
            let threshold: Float =
                switch configuration.scoreThreshold {
                case .value(let value): value
                case .metadataOr(let fallback): heads.first?.metadataScoreThreshold ?? fallback
                }
            postprocessor = try ClassificationPostprocessor(
                heads: heads, maxResults: configuration.maxResults, scoreThreshold: threshold,
                allowlist: configuration.categoryAllowlist, denylist: configuration.categoryDenylist)
            runner = try ImageModelRunner(loaded, threadCount: configuration.threadCount, subject: asset.subject)
        } catch {
            throw asset.subject.map { error.naming($0) } ?? error
        }
        subject = asset.subject
    }

    private static func heads(
        model: Model, subgraph: SubGraphMetadata?, files: AssociatedFiles,
        locale: String
    ) throws(TasksError) -> [ClassificationHead] {
        guard !model.outputs.isEmpty else {
            throw .invalidArgument("The model has no output tensor; an image classifier needs at least one.")
        }
        let outputMetadata = subgraph?.outputTensors ?? []
        if subgraph != nil, outputMetadata.count != model.outputs.count {
            throw .invalidArgument(
                "Mismatch between number of output tensors (\(model.outputs.count)) "
                    + "and output tensors metadata (\(outputMetadata.count)).")
        }
        let quantized = model.outputs.map { $0.elementType != .float32 }
        guard Set(quantized).count <= 1 else {
            throw .invalidArgument(
                "Outputs must be all quantized or all float32: \(model.outputs.map(\.description).joined(separator: ", ")).")
        }
        var heads: [ClassificationHead] = []
        for (index, tensor) in model.outputs.enumerated() {
            let metadata = index < outputMetadata.count ? outputMetadata[index] : nil
            heads.append(try ClassificationHead(index: index, tensor: tensor, metadata: metadata, files: files, locale: locale))
        }
        return heads
    }

    private static func replaceLabels(of heads: inout [ClassificationHead], with override: LabelOverride) throws(TasksError) {
        guard heads.count == 1 else {
            throw .invalidArgument(
                "The labels file gives labels for one output, but the model has \(heads.count) outputs.",
                subject: .file(override.file))
        }
        guard override.labels.count == heads[0].categoryCount else {
            throw .invalidArgument(
                "The labels file has \(override.labels.count) labels, but the model's output "
                    + "has \(heads[0].categoryCount) categories.", subject: .file(override.file))
        }
        heads[0].labels = override.labels
        heads[0].displayNames = nil
    }

    /// The model input's width and height in pixels.
    package var inputSize: (width: Int, height: Int) { (runner.input.width, runner.input.height) }

    /// The score threshold the first head's metadata gives (ScoreThresholdingOptions), if any.
    package var metadataScoreThreshold: Float? { heads.first?.metadataScoreThreshold }

    /// Classifies one image. Once an image of the same size and geometry was classified,
    /// nothing is allocated but the returned categories.
    /// - Parameters:
    ///   - image: the pixels.
    ///   - orientation: how the pixels must be turned to be upright.
    ///   - regionOfInterest: the region of the stored pixels to classify.
    /// - Returns: one `Classifications` per head.
    /// - Throws: `TasksError` when LiteRT fails to run the model, or outOfRange when a score is
    ///   NaN (both naming the model file).
    package func classify(
        _ image: PixelImage, orientation: ImageOrientation,
        regionOfInterest: RegionOfInterest
    ) throws(TasksError) -> [Classifications] {
        try runner.run(image, orientation: orientation, regionOfInterest: regionOfInterest)
        var results: [Classifications] = []
        results.reserveCapacity(heads.count)
        for head in heads {
            let (categories, nanCategory) = try runner.withOutput(head.index) { bytes in
                head.readScores(from: bytes, into: postprocessing.scores)
                let scores = UnsafeBufferPointer(rebasing: postprocessing.scores[0..<head.categoryCount])
                if let nan = scores.firstIndex(where: \.isNaN) { return ([ResultCategory](), Optional(nan)) }
                return (postprocessor.categories(scores: scores, head: head, keys: postprocessing.keys), nil)
            }
            if let nanCategory { throw nanScoreError(head: head, category: nanCategory) }
            results.append(Classifications(headIndex: head.index, headName: head.name, categories: categories))
        }
        return results
    }

    /// Runs the model on the input as the last `classify` left it, and nothing else: LiteRT's
    /// own time, which `vision-tasks benchmark` subtracts from a classification's to show the
    /// pipeline's overhead (preprocessing and postprocessing).
    /// - Throws: `TasksError` when LiteRT fails to run the model.
    package func runModelOnly() throws(TasksError) {
        try runner.runModelOnly()
    }

    /// A NaN score would be dropped by every threshold without a word (MediaPipe drops it so),
    /// hiding a broken model or calibration: it is an error naming the head and category.
    private func nanScoreError(head: ClassificationHead, category: Int) -> TasksError {
        let failure = TasksError(
            .outOfRangeError,
            "Output tensor \(head.index) gives a NaN score for category \(category): "
                + "the model's output (after dequantization and calibration) is not a number.")
        return subject.map { failure.naming($0) } ?? failure
    }

    /// Postprocesses the dequantized scores of every head (index-aligned with the outputs).
    func postprocess(scores: [[Float]]) -> [Classifications] {
        zip(heads, scores).map { head, scores in
            Classifications(
                headIndex: head.index, headName: head.name,
                categories: postprocessor.categories(scores: scores, head: head))
        }
    }
}

/// The scores and sort keys of one head, allocated once for the largest head.
private final class PostprocessingBuffers {
    let scores: UnsafeMutableBufferPointer<Float>
    let keys: UnsafeMutableBufferPointer<UInt64>

    init(categoryCount: Int) {
        scores = .allocate(capacity: categoryCount)
        keys = .allocate(capacity: ClassificationPostprocessor.keyCapacity(categoryCount: categoryCount))
    }

    deinit {
        scores.deallocate()
        keys.deallocate()
    }
}
