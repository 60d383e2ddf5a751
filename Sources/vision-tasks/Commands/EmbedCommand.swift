import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// `vision-tasks embed`: turns image files and folders into feature vectors with an `ImageEmbedder`.
struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Embed image files and folders with a .tflite model (MediaPipe ImageEmbedder).",
        usage: "vision-tasks embed --model MODEL [options] IMAGE_OR_FOLDER...",
        discussion: """
            Turns JPEG, PNG and WebP images (folders are searched recursively) into feature vectors
            as MediaPipe's ImageEmbedder does in image mode: one embedding per output tensor of the
            model (an embedder, a feature extractor without metadata whose uint8 output is
            dequantized, or a classifier, whose scores are then the embedding). A file's EXIF
            orientation is applied. The records name their fields as MediaPipe does: {"image",
            "embeddings": [{"headIndex", "headName", "floatEmbedding" or "quantizedEmbedding"}]}.
            """,
        epilogue: """
            Each image's result is printed as it is done (table, jsonl, csv); json and npy print at
            the end. npy writes one .npy array to standard output, shape [images, values], float32
            (int8 with --quantize), the first head's embedding per row in input order; when an image
            fails, its error goes to stderr and no array is written. With --files-from FILE, a format
            other than jsonl reads the list file whole first and runs its images as arguments.
            EXIT STATUS: 0 when every image was embedded, 1 when any failed or the model could not be
            loaded, 2 for a usage error. With --files-from answered in jsonl, images that fail leave
            the status 0 (each has its error line); it is 1 when the model cannot be loaded or the
            list cannot be read.
            """)

    static let format = OutputFormat.option(
        allowing: [.table, .json, .jsonl, .csv, .npy],
        help: "table (a line per head: size, norm, first values), json (one array), jsonl (one object per line), "
            + "csv (a record per image and head, the values separated by spaces) or npy (a NumPy array).")

    static let optionTable =
        EmbedderOptionGroup.optionTable + ImageProcessingOptionGroup.optionTable
        + [format.definition, StandardOptions.verbose.definition, DecodingMode.option.definition]
        + BatchOptionGroup.optionTable

    let embedder: EmbedderOptionGroup
    let imageProcessing: ImageProcessingOptionGroup
    let format: OutputFormat
    let verbose: Bool
    let batch: BatchOptionGroup
    let decoding: DecodingMode
    /// The image and folder arguments, byte for byte.
    let images: [FileSystemPath]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        embedder = try EmbedderOptionGroup(parsed)
        imageProcessing = try ImageProcessingOptionGroup(parsed)
        verbose = parsed.isSet(StandardOptions.verbose)
        images = parsed.positionals.map(\.path)
        batch = try BatchOptionGroup(parsed)
        decoding = try parsed.value(DecodingMode.option)
        format = try batch.format(
            parsed.value(Self.format), given: parsed.contains(Self.format.definition), imageArguments: images.count)
    }

    func run() throws(UsageError) -> Int32 {
        guard let source = try BatchRun.source(images: images, options: batch, format: format, output: EmbeddingOutput.self)
        else { return 1 }
        let run = BatchRun(source: source, format: format, options: batch, verbose: verbose)
        let processing = imageProcessing.processing(decoding: decoding)
        let saturation = SaturationCount()
        let status = run.run { workers throws(TasksError) in
            SaturationCountingTask(
                task: try EmbeddingTask(
                    options: embedder.options(workers: workers), processing: processing, recordingSources: true),
                count: saturation)
        }
        if !embedder.l2Normalize, let warning = saturation.warning { StandardStreams.warn(warning) }
        return status
    }
}
