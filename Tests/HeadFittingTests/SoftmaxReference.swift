import Foundation
import TestSupport

/// scikit-learn's fit of the same objective on MediaPipe embeddings of 200 clothing photos,
/// written by Tests/Reference/make_softmax_reference.py.
struct SoftmaxReference: Decodable, Sendable {
    let mediapipeVersion: String
    let sklearnVersion: String
    /// The dataset folder, relative to the test data folder.
    let dataset: String
    /// The embedder model's file name in `testdata/models`.
    let model: String
    /// λ = 1 / (C · N).
    let l2Strength: Double
    let classNames: [String]
    /// N photos, relative to the dataset folder, class by class.
    let files: [String]
    let labels: [Int]
    /// The float64 sum of each photo's MediaPipe embedding.
    let featureSums: [Double]
    /// scikit-learn's `coef_`, K × D (rounded to float32).
    let coef: [[Double]]
    /// scikit-learn's `intercept_`, K.
    let intercept: [Double]
    let nIter: Int
    /// L(W, b) at `coef` and `intercept`, in our normalization.
    let objective: Double
    /// ‖∇L‖ at `coef` and `intercept`.
    let gradientNorm: Double
    let trainingAccuracy: Double

    static func load() throws -> SoftmaxReference {
        let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/sklearn_softmax_reference.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(SoftmaxReference.self, from: try Data(contentsOf: url))
    }
}
