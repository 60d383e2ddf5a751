import Foundation
import GraphSurgery
import TFLiteMetadata
import TasksCommon
import TrainingPipeline

/// The two versions each writer alternates, which the kill test (importing this module)
/// compares what it finds with.
package enum ProbeVersions {
    package static func metadata(_ version: Int) -> ImageClassifierMetadata {
        ImageClassifierMetadata(name: "version \(version)", description: String(repeating: "v\(version) ", count: 4096))
    }

    package static let featureCount = 4096
    package static let digest = "ab" + String(repeating: "0", count: 62)
    package static func features(_ version: Int) -> [Float] { (0..<featureCount).map { Float($0 * (version + 1)) } }

    package static let modelName = "probe"
    package static func modelBytes(_ version: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(ascii: version == 0 ? "a" : "b"), count: 1 << 20)
    }
    package static func sha256(_ version: Int) -> String { String(repeating: version == 0 ? "a" : "b", count: 64) }

    /// A zero head on the base's features: exports of it are the same bytes every time.
    package static func classifier(base: String) throws(TasksError) -> TrainedClassifier {
        let extractor = try FeatureExtractor(base: base)
        let head = DenseHead(weights: [Float](repeating: 0, count: 2 * extractor.dimension), bias: [0, 0])
        return TrainedClassifier(
            extractor: extractor, layers: .head(head), classes: ["a", "b"], name: "probe", version: "1", description: "")
    }
}
