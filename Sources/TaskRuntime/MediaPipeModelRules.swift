import Foundation
import TFLiteMetadata
import TasksCommon

/// Whether MediaPipe Tasks' `ImageClassifier` (the 1.2.3 release) accepts a model, judged from
/// its FlatBuffer and metadata without running MediaPipe: the checks of
/// `BuildInputImageTensorSpecs` (`tasks/cc/vision/utils/image_tensor_specs.cc`), of the
/// classification postprocessing graph and of the metadata extractor, in MediaPipe's words.
///
/// These rules stay MediaPipe's when this package accepts more (its own answer comes from
/// `ClassifierEngine` itself); `vision-tasks inspect` shows both.
package enum MediaPipeModelRules {
    /// Why MediaPipe refuses the model, or nil when it accepts it.
    /// - Parameters:
    ///   - file: the model as the metadata reader read it (whose errors are MediaPipe's).
    ///   - inputs: subgraph 0's input tensors; `outputs` its outputs.
    package static func refusal(file: TFLiteModelFile, inputs: [ModelTensor], outputs: [ModelTensor]) -> String? {
        guard file.subgraphCount == 1 else {
            return
                "Image classification tflite models are assumed to have a single subgraph (this one has \(file.subgraphCount))."
        }
        // Not MediaPipe's words: it has none, it reads the list's first entry unchecked.
        if file.metadata?.hasEmptySubgraphList == true {
            return "The model's metadata has an empty subgraph_metadata list: MediaPipe 1.2.3 crashes (SIGSEGV) "
                + "loading it, as it reads the list's first entry without checking."
        }
        let subgraph = file.metadata?.subgraphs.first
        return inputRefusal(inputs, metadata: subgraph?.inputTensors.first)
            ?? outputRefusal(outputs, metadata: subgraph, files: file.associatedFiles)
    }

    private static func inputRefusal(_ inputs: [ModelTensor], metadata: TensorMetadata?) -> String? {
        guard inputs.count == 1 else {
            return "Image tflite models are assumed to have a single input (this one has \(inputs.count))."
        }
        let input = inputs[0]
        if let properties = metadata?.imageProperties, properties.colorSpace != .rgb {
            return "Only RGB color space is supported for now (color space \(properties.colorSpace))."
        }
        guard input.shape.count == 4 else {
            return "Only 4D tensors in BHWD layout are supported (input \(input.shape))."
        }
        guard input.typeName == "UINT8" || input.typeName == "FLOAT32" else {
            return
                "Type mismatch for input tensor \(input.name). Requested one of these types: uint8/float32, got \(input.typeName)."
        }
        guard input.shape[0] == 1, input.shape[3] == 3 else {
            return "The input tensor should have dimensions 1 x height x width x depth, where depth = 3 (input \(input.shape))."
        }
        guard input.typeName == "FLOAT32" else { return nil }
        guard let normalization = metadata?.normalization else {
            return
                "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess input images."
        }
        let (mean, std) = (normalization.mean, normalization.std)
        guard mean.count == std.count, mean.count == 1 || mean.count == 3 else {
            return
                "NormalizationOptions: expected 1 or 3 mean and std values of the same count, got \(mean.count) and \(std.count)."
        }
        guard Set(mean).count == 1, Set(std).count == 1 else { return "Per-channel image normalization is not available." }
        guard abs(std[0]) > 1e-6 else { return "NormalizationOptions.std_values can't be 0." }
        return nil
    }

    private static func outputRefusal(_ outputs: [ModelTensor], metadata: SubGraphMetadata?, files: AssociatedFiles) -> String? {
        if let metadata, metadata.outputTensors.count != outputs.count {
            return
                "Mismatch between number of output tensors (\(outputs.count)) and output tensors metadata (\(metadata.outputTensors.count))."
        }
        let types = Set(outputs.map(\.typeName))
        guard types.isSubset(of: ["FLOAT32", "UINT8", "BOOL"]) else {
            return "Output tensors must be FLOAT32, UINT8 or BOOL (got \(outputs.map(\.typeName).joined(separator: ", ")))."
        }
        guard !(types.contains("UINT8") && types.count > 1) else {
            return "All output tensors must be quantized or none (got \(outputs.map(\.typeName).joined(separator: ", ")))."
        }
        for (index, output) in outputs.enumerated() {
            guard let tensor = metadata?.outputTensors[index] else { continue }
            if let refusal = headRefusal(index, output, tensor, files: files) { return refusal }
        }
        return nil
    }

    /// Label and calibration files must match the head's element count (MediaPipe fails when it
    /// first classifies otherwise, an Internal RET_CHECK for labels).
    private static func headRefusal(
        _ index: Int, _ output: ModelTensor, _ metadata: TensorMetadata, files: AssociatedFiles
    )
        -> String?
    {
        let count = output.shape.reduce(1) { $0 * Int($1) }
        for info in metadata.associatedFiles(ofType: .tensorAxisLabels) {
            guard let data = try? files.contents(of: info.name) else { return "No associated file with name: \(info.name)" }
            let labels = LabelFile.parse(data).count
            if labels != count {
                return
                    "Output \(index): \(info.name) has \(labels) labels for \(count) scores (MediaPipe fails at the first classification)."
            }
        }
        guard metadata.scoreCalibration != nil else { return nil }
        guard let info = metadata.associatedFiles(ofType: .tensorAxisScoreCalibration).first else {
            return "Output \(index) has ScoreCalibrationOptions but no TENSOR_AXIS_SCORE_CALIBRATION associated file."
        }
        do {
            let sigmoids = try ScoreCalibrationFile.parse(try files.contents(of: info.name))
            if sigmoids.count != count {
                return
                    "Mismatch between number of sigmoids (\(sigmoids.count)) and number of elements in the input scores tensor (\(count))."
            }
        } catch {
            return error.message
        }
        return nil
    }
}
