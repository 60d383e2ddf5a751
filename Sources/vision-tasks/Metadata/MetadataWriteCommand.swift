import FileSystem
import Foundation
import ImageTasks
import TFLiteMetadata
import TasksCommon

/// `vision-tasks metadata write`: writes TFLite Model Metadata (labels, normalization, score
/// calibration, description) into a model, with `ModelMetadataWriter`.
struct MetadataWriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metadata",
        abstract: "Write TFLite Model Metadata (labels, normalization, ...) into a model: metadata write.",
        usage: "vision-tasks metadata write MODEL --output OUT [--labels FILE] [--mean M[,M,M] --std S[,S,S]] [options]",
        discussion: """
            Writes the TFLite Model Metadata MediaPipe's ImageClassifier, ML Kit and this tool read
            ("M001", as the TFLite Support metadata writer writes it) into an image classification
            model with one input and one output, and packs the labels and score calibration files into
            the zip appended to the model. A model that already has metadata keeps every value not
            given; each replaced value is printed. A float model needs --mean and --std.
            """,
        epilogue: """
            EXAMPLE: vision-tasks metadata write model.tflite --output model_with_metadata.tflite \\
              --labels labels.txt --mean 127.5 --std 127.5
            EXIT STATUS: 0 when the model was written, 1 when it could not be (the reason is printed),
            2 for a usage error.
            """)

    static let output = Option<String?>(name: "output", valueName: "OUT", help: "Where to write the new model (required).")
    static let labels = Option<String?>(
        name: "labels", valueName: "FILE", help: "The category names, one per line, in output order (TENSOR_AXIS_LABELS).")
    static let localizedLabels = RepeatedOption(
        name: "labels-locale", valueName: "CODE=FILE",
        help: "Display names in a locale, one per line (such as es=labels_es.txt); may be repeated.")
    static let mean = Option<[Float]?>(
        name: "mean", valueName: "M[,M,M]", help: "Normalization mean, in pixel units: one value or one per channel (R,G,B).",
        default: nil, transform: numbers("mean"))
    static let std = Option<[Float]?>(
        name: "std", valueName: "S[,S,S]", help: "Normalization standard deviation: one value or one per channel.",
        default: nil, transform: numbers("std"))
    static let name = Option<String?>(name: "name", valueName: "TEXT", help: "The model's name (default: ImageClassifier).")
    static let description = Option<String?>(name: "description", valueName: "TEXT", help: "What the model recognizes.")
    static let version = Option<String?>(name: "version", valueName: "TEXT", help: "The model's version.")
    static let author = Option<String?>(name: "author", valueName: "TEXT", help: "The model's author.")
    static let license = Option<String?>(name: "license", valueName: "TEXT", help: "The model's license.")
    static let scoreCalibration = Option<String?>(
        name: "score-calibration", valueName: "FILE",
        help:
            "A score calibration file: one line per category, scale,slope,offset[,min_score] (empty: the default score; a final newline is dropped)."
    )
    static let calibrationFunction = Option<ScoreTransformation?>(
        name: "calibration-function", valueName: "FUNCTION",
        help:
            "g in scale / (1 + exp(-(slope * g(score) + offset))): sigmoid (g = identity), log or inverse-logistic (required with "
            + "--score-calibration).", default: nil, transform: transformation)
    static let defaultScore = Option<Float>(
        name: "default-score", valueName: "S", help: "The calibrated score of a category without a sigmoid.", default: 0,
        defaultDescription: "0", transform: ValueParser.number("default-score"))

    static let optionTable = [
        output.definition, labels.definition, localizedLabels.definition, mean.definition, std.definition,
        name.definition, description.definition, version.definition, author.definition, license.definition,
        scoreCalibration.definition, calibrationFunction.definition, defaultScore.definition,
    ]

    let model: FileSystemPath
    let outputPath: FileSystemPath
    let labelsPath: FileSystemPath?
    let localizedLabelPaths: [(locale: String, path: String)]
    let normalization: ImageClassifierMetadata.Normalization?
    let texts: (name: String?, description: String?, version: String?, author: String?, license: String?)
    let calibration: (path: String, transformation: ScoreTransformation, defaultScore: Float)?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let positionals = parsed.positionals.map(\.text)
        guard positionals.first == "write" else {
            throw UsageError(
                "expected `metadata write MODEL --output OUT ...`" + (positionals.first.map { ", got '\($0)'" } ?? ""))
        }
        guard positionals.count == 2 else { throw UsageError("metadata write takes one MODEL, got \(positionals.count - 1)") }
        model = parsed.positionals[1].path
        outputPath = try parsed.requiredPath(Self.output)
        labelsPath = parsed.path(Self.labels)
        localizedLabelPaths = try parsed.values(Self.localizedLabels).map { (text) throws(UsageError) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex
            else {
                throw UsageError("--labels-locale expects CODE=FILE, such as es=labels_es.txt, got '\(text)'")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
        switch (try parsed.value(Self.mean), try parsed.value(Self.std)) {
        case (let mean?, let std?): normalization = .init(mean: mean, std: std)
        case (nil, nil): normalization = nil
        default: throw UsageError("give --mean and --std together")
        }
        texts = (
            try parsed.value(Self.name), try parsed.value(Self.description), try parsed.value(Self.version),
            try parsed.value(Self.author), try parsed.value(Self.license)
        )
        switch (try parsed.value(Self.scoreCalibration), try parsed.value(Self.calibrationFunction)) {
        case (let path?, let function?): calibration = (path, function, try parsed.value(Self.defaultScore))
        case (nil, nil): calibration = nil
        case (_?, nil): throw UsageError("--score-calibration needs --calibration-function (sigmoid, log or inverse-logistic)")
        case (nil, _?): throw UsageError("--calibration-function needs --score-calibration FILE")
        }
    }

    func run() throws(UsageError) -> Int32 {
        // The model may be rewritten in place; a labels or calibration file may not be replaced by a model.
        let sources = labelsPath.map { [$0] } ?? []
        let others = localizedLabelPaths.map { FileSystemPath($0.path) } + (calibration.map { [FileSystemPath($0.path)] } ?? [])
        let output = outputPath.description
        for path in sources + others where FileIdentity(path).map({ $0 == FileIdentity(outputPath) }) == true {
            throw UsageError("--output '\(TableText.escaped(output))' is the input file '\(TableText.escaped(path.description))'")
        }
        do {
            let replaced = try ModelMetadataWriter.write(modelAt: model, to: outputPath, metadata: try metadata())
            print("wrote \(TableText.escaped(output))")
            for line in replaced { print("replaced \(TableText.escaped(line))") }
            return 0
        } catch {
            StandardStreams.reportError(TasksError.wrapping(error))
            return 1
        }
    }

    /// The metadata the options give, with the files they name read.
    private func metadata() throws(TasksError) -> ImageClassifierMetadata {
        var labels: [ImageClassifierMetadata.Labels] = []
        if let labelsPath { labels.append(try Self.labels(at: labelsPath, locale: nil)) }
        for (locale, path) in localizedLabelPaths {
            labels.append(try Self.labels(at: FileSystemPath(path), locale: locale))
        }
        let scoreCalibration = try calibration.map { (calibration) throws(TasksError) in
            ImageClassifierMetadata.ScoreCalibration(
                fileName: Self.fileName(calibration.path),
                contents: Self.withoutFinalNewline(try FileReader.contents(atPath: calibration.path, as: .scoreCalibration)),
                transformation: calibration.transformation, defaultScore: calibration.defaultScore)
        }
        return ImageClassifierMetadata(
            name: texts.name, description: texts.description, version: texts.version, author: texts.author,
            license: texts.license, normalization: normalization, labels: labels, scoreCalibration: scoreCalibration)
    }

    private static func labels(at path: FileSystemPath, locale: String?) throws(TasksError) -> ImageClassifierMetadata.Labels {
        let bytes = try FileReader.contents(of: path, as: .labels)
        let labels = try LabelFile.parseForWriting(Data(bytes), fileName: path.description)
        return ImageClassifierMetadata.Labels(fileName: fileName(path.description), labels: labels, locale: locale)
    }

    /// The name a file gets in the model's zip: its last path component.
    private static func fileName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    private static func numbers(_ name: String) -> @Sendable (String) throws(UsageError) -> [Float]? {
        { text throws(UsageError) in
            let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Float($0) }
            guard values.count == 1 || values.count == 3, values.allSatisfy({ $0?.isFinite == true }) else {
                throw UsageError("--\(name) expects one number or three separated by commas (R,G,B), got '\(text)'")
            }
            return values.compactMap { $0 }
        }
    }

    /// Editors end a file with a newline, which MediaPipe would read as one more (empty) line of
    /// the calibration file: one category too many.
    private static func withoutFinalNewline(_ bytes: [UInt8]) -> Data {
        Data(bytes.last == 0x0A ? bytes.dropLast() : bytes[...])
    }

    private static func transformation(_ text: String) throws(UsageError) -> ScoreTransformation? {
        switch text.lowercased().replacingOccurrences(of: "_", with: "-") {
        // "sigmoid": the sigmoid of the score itself, which the schema calls IDENTITY.
        case "identity", "sigmoid": return .identity
        case "log": return .log
        case "inverse-logistic": return .inverseLogistic
        default: throw UsageError("--calibration-function must be sigmoid (identity), log or inverse-logistic, got '\(text)'")
        }
    }
}
