import TFLiteMetadata
import TaskRuntime

/// The classification heads of an inspected model: per output, its categories, labels,
/// locales, calibration and threshold.
enum InspectHeads {
    struct Head {
        let index: Int
        /// The output tensor metadata's name (MediaPipe's head name), if any.
        let name: String?
        /// The output's element count.
        let categoryCount: Int
        /// The lines of its first labels file (the category names), if it has one.
        let labelCount: Int?
        /// The locales of its labels files (display names), in metadata order.
        let locales: [String]
        let scoreCalibration: (transformationName: String, defaultScore: Float)?
        let scoreThreshold: Float?
    }

    static func heads(_ inspection: ModelInspection) -> [Head] {
        let metadata = inspection.metadata?.subgraphs.first?.outputTensors ?? []
        return inspection.outputs.enumerated().map { index, output in
            let tensor = index < metadata.count ? metadata[index] : nil
            let labels = tensor?.associatedFiles(ofType: .tensorAxisLabels) ?? []
            return Head(
                index: index, name: tensor?.name, categoryCount: output.shape.reduce(1) { $0 * Int($1) },
                labelCount: labels.first.flatMap { inspection.labelCount($0.name) },
                locales: labels.compactMap(\.locale),
                scoreCalibration: tensor?.scoreCalibration.map {
                    ($0.transformation.schemaName, $0.defaultScore)
                },
                scoreThreshold: tensor?.scoreThresholding?.globalScoreThreshold)
        }
    }

    /// The type the metadata gives a packed file, or nil when no tensor names it.
    static func typeName(of name: String, in metadata: ModelMetadata?) -> String? {
        let tensors = metadata?.subgraphs.flatMap { $0.inputTensors + $0.outputTensors } ?? []
        return tensors.lazy.flatMap(\.associatedFiles).first { $0.name == name }.map { SchemaNames.fileType($0.type) }
    }
}
