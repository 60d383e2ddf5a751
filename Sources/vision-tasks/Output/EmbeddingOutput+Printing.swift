import ImageTasks
import VisionTasks

extension EmbeddingOutput: PrintableOutput {
    /// A line per head: its size, its L2 norm (float embeddings) and its first and last values.
    var tableLines: [String] {
        embeddings.map { embedding in
            let name = embedding.headName.map { $0.isEmpty ? "" : " (\(TableText.escaped($0)))" } ?? ""
            let summary: String
            if let values = embedding.quantizedEmbedding {
                summary = "\(values.count) int8 values: " + Self.excerpt(values.map(String.init))
            } else {
                let values = embedding.floatEmbedding ?? []
                let norm = values.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
                summary =
                    "\(values.count) floats, L2 norm \(TableText.score(Float(norm))): "
                    + Self.excerpt(values.map { TableText.score($0) })
            }
            return "  head \(embedding.headIndex)\(name): \(summary)"
        }
    }

    /// The first four values and the last, or all of them when there are at most six.
    private static func excerpt(_ values: [String]) -> String {
        guard values.count > 6 else { return values.joined(separator: " ") }
        return (values.prefix(4) + ["...", values.last!]).joined(separator: " ")
    }

    static let csvColumns = ["headIndex", "headName", "embedding"]

    /// A record per head; `embedding` holds the values separated by spaces (floats as Swift
    /// prints them, the shortest text that reads back as the same value).
    var csvRecords: [[String]] {
        embeddings.map { embedding in
            let values =
                embedding.quantizedEmbedding.map { $0.map { "\($0)" } } ?? (embedding.floatEmbedding ?? []).map { "\($0)" }
            return [String(embedding.headIndex), embedding.headName ?? "", values.joined(separator: " ")]
        }
    }

    /// The size of each head (embed has no report option; the card says what the embedding is).
    var reportCard: (body: String, summaryName: String) {
        let text = embeddings.map {
            "head \($0.headIndex): \(($0.floatEmbedding?.count ?? $0.quantizedEmbedding?.count) ?? 0) values"
        }
        return ("<p>\(HTMLText.shown(text.joined(separator: "; ")))</p>", "embedding")
    }

    /// The first head's values: the row of `--format npy`.
    var matrixRow: TensorValues? { firstRow }
}
