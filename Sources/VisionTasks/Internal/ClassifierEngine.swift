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
    package var scoreThreshold: Float
    /// Category names to keep (empty: all).
    package var categoryAllowlist: [String]
    /// Category names to drop.
    package var categoryDenylist: [String]

    package init(asset: ModelAsset, threadCount: Int, displayNamesLocale: String = "en", maxResults: Int = -1,
                 scoreThreshold: Float = 0, categoryAllowlist: [String] = [], categoryDenylist: [String] = []) {
        self.asset = asset
        self.threadCount = threadCount
        self.displayNamesLocale = displayNamesLocale
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        self.categoryAllowlist = categoryAllowlist
        self.categoryDenylist = categoryDenylist
    }
}

/// The classification pipeline shared by `ImageClassifier` and the ML Kit image labeler:
/// model contract checked at creation, then per image preprocessing straight into the input
/// tensor, inference, and postprocessing of every head.
///
/// Not `Sendable` and not reentrant (it owns LiteRT buffers); the task types serialize calls.
package final class ClassifierEngine {
    private let compiled: CompiledModel
    private let input: ImageInputSpec
    let heads: [ClassificationHead]
    private let postprocessor: ClassificationPostprocessor

    /// Loads, checks and compiles the model.
    /// - Throws: `TasksError` naming the model source for an unreadable or invalid model, and
    ///   MediaPipe's errors for unsupported inputs/outputs, metadata and options.
    package init(_ configuration: ClassifierConfiguration) throws(TasksError) {
        let asset = configuration.asset
        let file: TFLiteModelFile
        let model: Model
        do throws(TasksError) {
            file = try TFLiteModelFile(bytes: asset.bytes)
            model = try Model(bytes: asset.bytes, environment: try Environment())
        } catch {
            throw TasksError(error.code, "Failed to load the model \(asset.source): \(error.message)")
        }
        guard file.subgraphCount == 1 else {
            throw .invalidArgument("Image classification tflite models are assumed to have a single subgraph; "
                + "\(asset.source) has \(file.subgraphCount).")
        }
        let subgraph = file.metadata?.subgraphs.first
        input = try ImageInputSpec(inputs: model.inputs, metadata: subgraph?.inputTensors.first)
        heads = try ClassifierEngine.heads(model: model, subgraph: subgraph, files: file.associatedFiles,
                                           locale: configuration.displayNamesLocale)
        postprocessor = try ClassificationPostprocessor(
            heads: heads, maxResults: configuration.maxResults, scoreThreshold: configuration.scoreThreshold,
            allowlist: configuration.categoryAllowlist, denylist: configuration.categoryDenylist)
        compiled = try CompiledModel(model: model, threadCount: configuration.threadCount)
    }

    private static func heads(model: Model, subgraph: SubGraphMetadata?, files: AssociatedFiles,
                              locale: String) throws(TasksError) -> [ClassificationHead] {
        let outputMetadata = subgraph?.outputTensors ?? []
        if subgraph != nil, outputMetadata.count != model.outputs.count {
            throw .invalidArgument("Mismatch between number of output tensors (\(model.outputs.count)) "
                + "and output tensors metadata (\(outputMetadata.count)).")
        }
        let quantized = model.outputs.map { $0.elementType == .uint8 }
        guard Set(quantized).count <= 1 else {
            throw .invalidArgument("Outputs must be all quantized or all float32: \(model.outputs.map(\.description).joined(separator: ", ")).")
        }
        var heads: [ClassificationHead] = []
        for (index, tensor) in model.outputs.enumerated() {
            let metadata = index < outputMetadata.count ? outputMetadata[index] : nil
            heads.append(try ClassificationHead(index: index, tensor: tensor, metadata: metadata, files: files, locale: locale))
        }
        return heads
    }

    /// Classifies one image.
    /// - Parameters:
    ///   - image: the pixels.
    ///   - orientation: how the pixels must be turned to be upright.
    ///   - regionOfInterest: normalized [0,1] rectangle, top-left origin, in the stored pixels'
    ///     coordinates; nil for the whole image.
    /// - Returns: one `Classifications` per head.
    /// - Throws: `TasksError` invalidArgument for a region outside [0,1] or empty.
    package func classify(_ image: PixelImage, orientation: ImageOrientation,
                          regionOfInterest: CGRect?) throws(TasksError) -> [Classifications] {
        let region = regionOfInterest ?? CGRect(x: 0, y: 0, width: 1, height: 1)
        try compiled.inputBuffers[0].withBytes(forWriting: true) { buffer throws(TasksError) in
            try ImagePreprocessor.preprocess(image, regionOfInterest: region, orientation: orientation,
                                             into: buffer, width: input.width, height: input.height,
                                             element: input.element)
        }
        try compiled.run()
        var outputs: [[Float]] = []
        for head in heads {
            outputs.append(try compiled.outputBuffers[head.index].withBytes(forWriting: false) { head.scores(from: UnsafeRawBufferPointer($0)) })
        }
        return postprocess(scores: outputs)
    }

    /// Postprocesses the dequantized scores of every head (index-aligned with the outputs).
    func postprocess(scores: [[Float]]) -> [Classifications] {
        zip(heads, scores).map { head, scores in
            Classifications(headIndex: head.index, headName: head.name,
                            categories: postprocessor.categories(scores: scores, head: head))
        }
    }
}
