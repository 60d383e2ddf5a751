import Foundation
import TFLiteMetadata
import TaskRuntime

/// `inspect --format json`: the metadata under the metadata schema's own names, as
/// tflite-support's `MetadataDisplayer.get_metadata_json()` shows them (enums by name, absent
/// fields left out), beside the tensors (the TFLite schema's names), the heads, the packed files
/// and the two verdicts.
enum InspectJSON {
    /// The whole report as one JSON object (keys sorted).
    static func object(_ inspection: ModelInspection, path: String) -> [String: Any] {
        var object: [String: Any] = metadata(inspection.metadata)
        object["model_file"] = path
        object["input_tensors"] = inspection.inputs.map(tensor)
        object["output_tensors"] = inspection.outputs.map(tensor)
        object["heads"] = InspectHeads.heads(inspection).map(head)
        object["packed_associated_files"] = inspection.packedFiles.map { file in
            var entry: [String: Any] = ["name": file.name, "size": file.size]
            entry["type"] = InspectHeads.typeName(of: file.name, in: inspection.metadata)
            return entry
        }
        if case .failure(let error) = inspection.file { object["metadata_error"] = error.reason }
        object["mediapipe_image_classifier"] = verdict(inspection.mediaPipeRefusal)
        object["vision_tasks"] = verdict(inspection.productRefusal)
        return object
    }

    private static func verdict(_ refusal: String?) -> [String: Any] {
        refusal.map { ["accepted": false, "reason": $0] } ?? ["accepted": true]
    }

    /// A float as JSON shows its shortest decimal form (127.5, 0.05), not its binary expansion.
    static func number(_ value: Float) -> Any { Double("\(value)") ?? Double(value) }

    private static func tensor(_ tensor: ModelTensor) -> [String: Any] {
        var object: [String: Any] = ["name": tensor.name, "type": tensor.typeName, "shape": tensor.shape.map(Int.init)]
        if !tensor.scale.isEmpty || !tensor.zeroPoint.isEmpty {
            object["quantization"] = ["scale": tensor.scale.map(number), "zero_point": tensor.zeroPoint.map(Int.init)]
        }
        return object
    }

    private static func head(_ head: InspectHeads.Head) -> [String: Any] {
        var object: [String: Any] = ["index": head.index, "category_count": head.categoryCount, "locales": head.locales]
        object["name"] = head.name
        object["label_count"] = head.labelCount
        object["score_calibration"] = head.scoreCalibration.map {
            ["score_transformation": $0.transformationName, "default_score": number($0.defaultScore)]
        }
        object["score_threshold"] = head.scoreThreshold.map(number)
        return object
    }

    // MARK: The metadata, by the schema's names

    private static func metadata(_ metadata: ModelMetadata?) -> [String: Any] {
        guard let metadata else { return [:] }
        var object: [String: Any] = [:]
        object["name"] = metadata.name
        object["description"] = metadata.description
        object["version"] = metadata.version
        object["author"] = metadata.author
        object["license"] = metadata.license
        object["min_parser_version"] = metadata.minParserVersion
        object["subgraph_metadata"] = metadata.subgraphs.map { subgraph in
            [
                "input_tensor_metadata": subgraph.inputTensors.map(tensorMetadata),
                "output_tensor_metadata": subgraph.outputTensors.map(tensorMetadata),
            ]
        }
        return object
    }

    private static func tensorMetadata(_ tensor: TensorMetadata) -> [String: Any] {
        var object: [String: Any] = [:]
        object["name"] = tensor.name
        object["description"] = tensor.description
        if tensor.contentPropertiesType != 0 {
            var content: [String: Any] = ["content_properties_type": SchemaNames.contentProperties(tensor.contentPropertiesType)]
            if let properties = tensor.imageProperties {
                content["content_properties"] = ["color_space": SchemaNames.colorSpace(properties.colorSpace)]
            } else if tensor.contentPropertiesType == 1 {
                content["content_properties"] = [String: Any]()
            }
            object["content"] = content
        }
        var units: [[String: Any]] = []
        if let normalization = tensor.normalization {
            units.append(
                unit("NormalizationOptions", ["mean": normalization.mean.map(number), "std": normalization.std.map(number)]))
        }
        if let calibration = tensor.scoreCalibration {
            units.append(
                unit(
                    "ScoreCalibrationOptions",
                    [
                        "score_transformation": calibration.transformation.schemaName,
                        "default_score": number(calibration.defaultScore),
                    ]))
        }
        if let thresholding = tensor.scoreThresholding {
            units.append(unit("ScoreThresholdingOptions", ["global_score_threshold": number(thresholding.globalScoreThreshold)]))
        }
        if !units.isEmpty { object["process_units"] = units }
        if !tensor.associatedFiles.isEmpty {
            object["associated_files"] = tensor.associatedFiles.map { file in
                var entry: [String: Any] = ["name": file.name, "type": SchemaNames.fileType(file.type)]
                entry["description"] = file.description
                entry["locale"] = file.locale
                return entry
            }
        }
        return object
    }

    private static func unit(_ type: String, _ options: [String: Any]) -> [String: Any] {
        ["options_type": type, "options": options]
    }
}
