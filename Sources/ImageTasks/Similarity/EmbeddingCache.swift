import Foundation
import TasksCommon
import VisionTasks

/// Embeddings an earlier `embed` printed (`--format jsonl` or `json`), by image, for
/// `similar --embeddings FILE`: images found there are not embedded again. The file must come
/// from the same model and options; records with an error are ignored (those images are
/// embedded again), and so is a last line cut short.
package enum EmbeddingCache {
    /// The largest file read, in bytes: a million 1,280-float embeddings as JSON text are about 16 GB,
    /// so a file this size holds hundreds of thousands.
    package static let maximumFileSize = 4 << 30

    /// The first head's embedding of every successful record in `path`.
    /// - Throws: `TasksError` naming the file when it cannot be read, is not `embed`'s JSON or
    ///   JSON Lines, or holds quantized embeddings (similarity search needs float ones).
    package static func read(_ path: String) throws(TasksError) -> [String: Embedding] {
        let kind = FileKind(noun: "embeddings file", maximumByteCount: maximumFileSize)
        let bytes = Data(try FileReader.contents(atPath: path, as: kind))
        let records = try decode(bytes, file: path)
        var embeddings: [String: Embedding] = [:]
        for record in records where record.error == nil {
            guard let first = record.output?.first else { continue }
            guard first.floatEmbedding != nil else {
                throw .invalidArgument(
                    "The record of \(record.image) holds a quantized embedding; similar compares float embeddings "
                        + "(make the file with `vision-tasks embed --format jsonl` without --quantize).", subject: .file(path))
            }
            embeddings[record.image] = first.embedding
        }
        return embeddings
    }

    private static func decode(_ bytes: Data, file: String) throws(TasksError) -> [ImageOutcomeRecord<EmbeddingOutput>] {
        let decoder = JSONDecoder()
        let isArray = bytes.first { !Set(" \t\r\n".utf8).contains($0) } == UInt8(ascii: "[")
        if isArray {
            do {
                return try decoder.decode([ImageOutcomeRecord<EmbeddingOutput>].self, from: bytes)
            } catch {
                throw notEmbedOutput("it is a JSON array, but not one of `embed` records", file: file)
            }
        }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var records: [ImageOutcomeRecord<EmbeddingOutput>] = []
        for (index, line) in lines.enumerated() where !line.allSatisfy({ $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: " ") }) {
            do {
                records.append(try decoder.decode(ImageOutcomeRecord<EmbeddingOutput>.self, from: Data(line)))
            } catch {
                // The last line of a run killed while writing it has no newline: left out.
                if index == lines.count - 1 { continue }
                throw notEmbedOutput("line \(index + 1) is not an `embed` record", file: file)
            }
        }
        guard !records.isEmpty || bytes.allSatisfy({ Set(" \t\r\n".utf8).contains($0) }) else {
            throw notEmbedOutput("it holds no complete `embed` record", file: file)
        }
        return records
    }

    private static func notEmbedOutput(_ what: String, file: String) -> TasksError {
        .invalidArgument(
            "It is not the output of `vision-tasks embed --format jsonl` (or json): \(what).", subject: .file(file))
    }
}
