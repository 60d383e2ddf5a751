import Foundation
import TasksCommon

/// The checks the metadata writer makes before writing, so that a model it writes is one
/// MediaPipe and this package can load (for the fields the writer controls).
enum MetadataValidation {
    /// The longest text field (name, description, version, author, license), in bytes.
    static let maximumTextSize = 1 << 20

    /// - Throws: `TasksError` invalidArgument naming the field and value at fault.
    static func check(_ contents: MetadataBuilder.Contents, input: ModelTensor, output: ModelTensor) throws(TasksError) {
        let texts = [
            ("name", contents.name), ("description", contents.description), ("version", contents.version),
            ("author", contents.author), ("license", contents.license),
        ]
        for case let (field, text?) in texts where text.utf8.count > maximumTextSize {
            throw .invalidArgument(
                "The \(field) is \(text.utf8.count) bytes; at most \(maximumTextSize) bytes (1 MiB) are accepted.")
        }
        if let normalization = contents.normalization {
            try check(normalization)
        } else if input.typeName == "FLOAT32" {
            throw .invalidArgument(
                "Input tensor '\(input.name)' is FLOAT32: give the normalization (mean and std) that maps pixels in [0, 255] to the model's inputs, such as mean 127.5 and std 127.5 for inputs in [-1, 1]. MediaPipe refuses a float model without NormalizationOptions."
            )
        }
        let categories = output.lastDimension
        var names: Set<String> = []
        var locales: [String?: String] = [:]
        for labels in contents.labels {
            try checkName(labels.fileName, &names)
            // Readers take the first file of a locale: a second one would be packed and never used.
            if let first = locales.updateValue(labels.fileName, forKey: labels.locale) {
                let locale = labels.locale.map { "locale '\($0)'" } ?? "no locale (the default labels)"
                throw .invalidArgument(
                    "Labels files \(first) and \(labels.fileName) both have \(locale); give one labels file per locale.")
            }
            guard labels.labels.count == categories else {
                throw .invalidArgument(
                    "Labels file \(labels.fileName) has \(labels.labels.count) labels, but output tensor '\(output.name)' \(output.shape) has \(categories) categories."
                )
            }
            if let index = labels.labels.firstIndex(where: { $0.contains("\n") || $0.contains("\r") }) {
                throw .invalidArgument("Label \(index) of \(labels.fileName) contains a line break; each label is one line.")
            }
            if let locale = labels.locale, locale.isEmpty || locale.contains(where: \.isWhitespace) {
                throw .invalidArgument("The locale of \(labels.fileName) is '\(locale)'; give a code such as \"en\" or \"es\".")
            }
            let size = labels.labels.reduce(0) { $0 + $1.utf8.count + 1 }
            guard size <= ModelMetadataWriter.maximumFileSize else {
                throw .invalidArgument("Labels file \(labels.fileName) is \(size) bytes; at most 64 MiB are accepted.")
            }
        }
        if let calibration = contents.scoreCalibration {
            try checkName(calibration.fileName, &names)
            try check(calibration, categories: categories)
        }
    }

    private static func checkName(_ name: String, _ names: inout Set<String>) throws(TasksError) {
        guard !name.isEmpty, !name.contains("/"), !name.contains("\\") else {
            throw .invalidArgument("Associated file name '\(name)' must be a plain file name, such as labels.txt.")
        }
        guard names.insert(name).inserted else {
            throw .invalidArgument("Two associated files are named \(name); each file in the model's zip needs its own name.")
        }
    }

    private static func check(_ normalization: ImageClassifierMetadata.Normalization) throws(TasksError) {
        let (mean, std) = (normalization.mean, normalization.std)
        guard [1, 3].contains(mean.count), [1, 3].contains(std.count), mean.count == std.count else {
            throw .invalidArgument(
                "Normalization needs 1 or 3 mean values and as many std values (one per channel, R, G, B), got \(mean.count) mean and \(std.count) std values."
            )
        }
        guard (mean + std).allSatisfy(\.isFinite) else {
            throw .invalidArgument("Normalization values must be finite numbers, got mean \(mean) and std \(std).")
        }
        guard std.allSatisfy({ abs($0) > 1e-6 }) else {
            throw .invalidArgument("Normalization std values must not be 0, got \(std).")
        }
        guard zip(mean, std).allSatisfy({ ((0 - $0) / $1).isFinite && ((255 - $0) / $1).isFinite }) else {
            throw .invalidArgument(
                "Normalization mean \(mean) and std \(std) map pixel values 0...255 outside the range of 32-bit floats.")
        }
    }

    private static func check(_ calibration: ImageClassifierMetadata.ScoreCalibration, categories: Int) throws(TasksError) {
        guard calibration.contents.count <= ModelMetadataWriter.maximumFileSize else {
            throw .invalidArgument(
                "Score calibration file \(calibration.fileName) is \(calibration.contents.count) bytes; at most 64 MiB are accepted."
            )
        }
        guard calibration.defaultScore.isFinite else {
            throw .invalidArgument(
                "The default score of the score calibration must be a finite number, got \(calibration.defaultScore).")
        }
        let sigmoids: [Sigmoid?]
        do {
            sigmoids = try ScoreCalibrationFile.parse(calibration.contents)
        } catch {
            throw .invalidArgument("Score calibration file \(calibration.fileName): \(error.reason)")
        }
        guard sigmoids.count == categories else {
            throw .invalidArgument(
                "Score calibration file \(calibration.fileName) has \(sigmoids.count) lines (a final newline counts as an empty line), but the output has \(categories) categories; MediaPipe needs one line per category."
            )
        }
    }
}
