import FileSystem
import Foundation
import TasksCommon
import VisionTasks

/// Embeddings an earlier `embed` printed (`--format jsonl` or `json`), by image, for
/// `similar --embeddings FILE`: images found there are not embedded again. Each embedding
/// must come from the same model and options (its record's `EmbeddingSource`); records with an
/// error are ignored (those images are embedded again), and so is a last line cut short.
package enum EmbeddingCache {
    /// The largest file read, in bytes: a million 1,280-float embeddings as JSON text are about 16 GB,
    /// so a file this size holds hundreds of thousands.
    package static let maximumFileSize = 4 << 30

    /// The first head's embedding of every successful record in `path`, each made as `source` says.
    /// - Throws: `TasksError` naming the file when it cannot be read, is not `embed`'s JSON or
    ///   JSON Lines, holds quantized embeddings (similarity search needs float ones), or holds an
    ///   embedding another model, output tensor or options made, or one that does not say
    ///   (named with both sources).
    package static func read(_ path: String, madeBy source: EmbeddingSource) throws(TasksError) -> [String: Embedding] {
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
            try check(first.source, of: record.image, against: source, file: path)
            embeddings[record.image] = first.embedding
        }
        return embeddings
    }

    private static func check(
        _ made: EmbeddingSource?, of image: String, against source: EmbeddingSource, file: String
    ) throws(TasksError) {
        guard let made else {
            throw .invalidArgument(
                "The record of \(image) does not say which model made its embedding (a file from an older `embed`); "
                    + "make it again with `vision-tasks embed --model \(source.model) --format jsonl`.", subject: .file(file))
        }
        guard made.makesTheSameValues(as: source) else {
            throw .invalidArgument(
                "The embedding of \(image) was made by \(made.description); this run embeds with \(source.description). "
                    + "Embeddings of different models or options do not compare: make the file with this run's model and "
                    + "options, or give that model.", subject: .file(file))
        }
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
