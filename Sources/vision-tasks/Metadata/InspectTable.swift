import TFLiteMetadata
import TaskRuntime

/// `inspect --format table`: the report as readable lines.
enum InspectTable {
    static func lines(_ inspection: ModelInspection, path: String) -> [String] {
        var lines = [TableText.escaped(path)]
        lines += tensorLines("inputs", inspection.inputs) + tensorLines("outputs", inspection.outputs)
        lines += metadataLines(inspection)
        lines += InspectHeads.heads(inspection).map(headLine)
        let files = inspection.packedFiles
        if !files.isEmpty {
            lines.append("  associated files:")
            lines += TableText.aligned(
                header: ["bytes", "name", "type"],
                rows: files.map { file in
                    [
                        "\(file.size)", TableText.escaped(file.name),
                        InspectHeads.typeName(of: file.name, in: inspection.metadata) ?? "(not named by the metadata)",
                    ]
                }, indent: "    ", rightAligned: [0])
        }
        lines.append("  MediaPipe ImageClassifier: " + verdict(inspection.mediaPipeRefusal))
        lines.append("  vision-tasks: " + verdict(inspection.productRefusal))
        return lines
    }

    private static func verdict(_ refusal: String?) -> String {
        refusal.map { "refused: \(TableText.escaped($0))" } ?? "accepted"
    }

    private static func tensorLines(_ title: String, _ tensors: [ModelTensor]) -> [String] {
        ["  \(title):"]
            + TableText.aligned(
                header: ["#", "name", "type", "shape", "quantization"],
                rows: tensors.enumerated().map { index, tensor in
                    let quantization =
                        tensor.scale.isEmpty
                        ? "-"
                        : "scale \(tensor.scale.count == 1 ? "\(tensor.scale[0])" : "\(tensor.scale)"), zero point "
                            + (tensor.zeroPoint.count == 1 ? "\(tensor.zeroPoint[0])" : "\(tensor.zeroPoint)")
                    return ["\(index)", TableText.escaped(tensor.name), tensor.typeName, "\(tensor.shape)", quantization]
                }, indent: "    ", rightAligned: [0])
    }

    private static func metadataLines(_ inspection: ModelInspection) -> [String] {
        if case .failure(let error) = inspection.file { return ["  metadata: unreadable: \(TableText.escaped(error.reason))"] }
        guard let metadata = inspection.metadata else { return ["  metadata: none"] }
        var lines = ["  metadata: min_parser_version \(metadata.minParserVersion ?? "(none)")"]
        let fields = [
            ("name", metadata.name), ("description", metadata.description), ("version", metadata.version),
            ("author", metadata.author), ("license", metadata.license),
        ]
        for case let (field, value?) in fields { lines.append("    \(field): \(TableText.escaped(value))") }
        if let input = metadata.subgraphs.first?.inputTensors.first {
            let normalization = input.normalization.map { "mean \($0.mean), std \($0.std)" } ?? "none"
            let colorSpace = input.imageProperties.map { SchemaNames.colorSpace($0.colorSpace) } ?? "(no image properties)"
            lines.append("    input normalization: \(normalization); color space \(colorSpace)")
        }
        return lines
    }

    private static func headLine(_ head: InspectHeads.Head) -> String {
        var parts = ["\(head.categoryCount) categories"]
        parts.append(head.labelCount.map { "\($0) labels" } ?? "no labels")
        if !head.locales.isEmpty { parts.append("locales \(head.locales.map(TableText.escaped).joined(separator: ", "))") }
        if let calibration = head.scoreCalibration {
            parts.append("score calibration \(calibration.transformationName), default score \(calibration.defaultScore)")
        }
        if let threshold = head.scoreThreshold { parts.append("score threshold \(threshold)") }
        let name = head.name.map { " (\(TableText.escaped($0)))" } ?? ""
        return "  head \(head.index)\(name): " + parts.joined(separator: "; ")
    }
}
