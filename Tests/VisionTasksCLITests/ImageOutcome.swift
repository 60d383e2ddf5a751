import Foundation
import TestSupport
import Testing

/// One image's entry in `classify --format json|jsonl` output, as README documents it:
/// `{"image", "classifications": [{"headIndex", "headName", "categories": [{"index", "score",
/// "categoryName", "displayName"}]}]}` or `{"image", "error": {"code", "message"}}`; for
/// `label`, `{"image", "labels": [{"text", "confidence", "index"}]}` or the same error object.
///
/// Decoding cannot tell a null from a missing key; `ClassifyOutputTests` checks the exact keys
/// with `JSONSerialization`.
struct ImageOutcome: Decodable, Equatable, Sendable {
    let image: String
    let classifications: [Head]?
    /// `label`'s labels, highest confidence first (nil for classify and for errors).
    let labels: [Label]?
    let error: Failure?

    struct Head: Decodable, Equatable, Sendable {
        let headIndex: Int
        let headName: String?
        let categories: [Category]
    }

    struct Category: ScoredCategory, Decodable, Equatable, Sendable {
        let index: Int
        let score: Float
        let categoryName: String?
        let displayName: String?
    }

    /// One of `label`'s labels: ML Kit's `ImageLabel`.
    struct Label: Decodable, Equatable, Sendable {
        let text: String
        let confidence: Float
        let index: Int
    }

    struct Failure: Decodable, Equatable, Sendable {
        /// MediaPipe's status name, such as "INVALID_ARGUMENT".
        let code: String
        let message: String
    }

    /// The first head's categories (the shared models have one head), or none.
    var categories: [Category] { classifications?.first?.categories ?? [] }
}

extension VisionTasksTool.Run {
    /// stdout of `--format json`: exactly one JSON array of outcomes.
    func jsonOutcomes(sourceLocation: SourceLocation = #_sourceLocation) throws -> [ImageOutcome] {
        try #require(
            try? JSONDecoder().decode([ImageOutcome].self, from: Data(stdout.utf8)),
            "stdout is not one JSON array of image outcomes:\n\(self)", sourceLocation: sourceLocation)
    }

    /// stdout of `--format jsonl`: one JSON object per line.
    func jsonlOutcomes(sourceLocation: SourceLocation = #_sourceLocation) throws -> [ImageOutcome] {
        try stdoutLines.enumerated().map { number, line in
            try #require(
                try? JSONDecoder().decode(ImageOutcome.self, from: Data(line.utf8)),
                "stdout line \(number + 1) is not one JSON image outcome:\n\(self)", sourceLocation: sourceLocation)
        }
    }
}
