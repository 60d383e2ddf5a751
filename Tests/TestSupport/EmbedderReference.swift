import Foundation

/// `Tests/Reference/mediapipe_embedder_outputs.json`, made by `Tests/Reference/make_embedder_reference.py`:
/// MediaPipe 1.2.3's ImageEmbedder on the pixels our decoder produces.
public struct EmbedderReference: Decodable, Sendable {
    public let mediapipeVersion: String
    public let embeddings: [Case]
    public let cosineSimilarities: [Similarity]
    public let rankings: [Ranking]

    /// One image (with a region and rotation, or none) through one model with one set of options.
    public struct Case: Decodable, Sendable {
        public let model: String
        public let image: String
        /// MediaPipe's RectF: left, top, right, bottom, normalized.
        public let roi: [Double]?
        /// Clockwise, a multiple of 90.
        public let rotationDegrees: Int
        public let l2Normalize: Bool
        public let quantize: Bool
        public let headIndex: Int
        public let headName: String?
        public let floatEmbedding: [Float]?
        public let quantizedEmbedding: [Int8]?
    }

    /// MediaPipe's cosine similarity of two images' embeddings.
    public struct Similarity: Decodable, Sendable {
        public let model: String
        public let l2Normalize: Bool
        public let quantize: Bool
        public let first: String
        public let second: String
        public let value: Double
    }

    /// MediaPipe's cosine similarity of the query to every image of the shared images folder
    /// (itself included), default options.
    public struct Ranking: Decodable, Sendable {
        public let model: String
        public let query: String
        public let similarities: [String: Double]
    }

    /// The embedding of `image` through `model` with default options, no region, no rotation.
    public func plain(model: String, image: String, l2Normalize: Bool = false, quantize: Bool = false) -> Case? {
        embeddings.first {
            ($0.model, $0.image, $0.l2Normalize, $0.quantize, $0.roi, $0.rotationDegrees)
                == (model, image, l2Normalize, quantize, nil, 0)
        }
    }

    public static func load() throws -> EmbedderReference {
        let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/mediapipe_embedder_outputs.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(EmbedderReference.self, from: try Data(contentsOf: url))
    }
}
