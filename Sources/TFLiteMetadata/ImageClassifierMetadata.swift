import Foundation

/// The TFLite Model Metadata of an image classifier, as `ModelMetadataWriter` writes it: what
/// MediaPipe's `ImageClassifier`, ML Kit's custom-model image labeler and this package read
/// (input normalization, category labels, score calibration) and the model's description.
///
/// Mirrors the inputs of the TFLite Support metadata writer for image classifiers
/// (`metadata_writers.image_classifier.MetadataWriter.create_for_inference`). A field left nil
/// (or empty) keeps the value of the model's existing metadata, if any.
public struct ImageClassifierMetadata: Sendable, Equatable {
    /// `ModelMetadata.name`, such as "ImageClassifier" (the default for a model that has none).
    public var name: String?
    /// `ModelMetadata.description`: what the model recognizes.
    public var description: String?
    /// `ModelMetadata.version`: the model's own version, such as "v1".
    public var version: String?
    /// `ModelMetadata.author`.
    public var author: String?
    /// `ModelMetadata.license`, such as "Apache License. Version 2.0".
    public var license: String?
    /// The input's `NormalizationOptions`; required for a FLOAT32 input.
    public var normalization: Normalization?
    /// The output's label files (`TENSOR_AXIS_LABELS`): the first gives the category names, the
    /// others (with a locale) display names. When the model has labels already, each file
    /// replaces the model's file of the same locale (no locale: the category names) and the
    /// model's other files are kept; empty keeps them all.
    public var labels: [Labels]
    /// The output's score calibration (`ScoreCalibrationOptions` and its
    /// `TENSOR_AXIS_SCORE_CALIBRATION` file).
    public var scoreCalibration: ScoreCalibration?

    /// Creates the metadata to write; every field is optional.
    public init(
        name: String? = nil, description: String? = nil, version: String? = nil, author: String? = nil,
        license: String? = nil, normalization: Normalization? = nil, labels: [Labels] = [],
        scoreCalibration: ScoreCalibration? = nil
    ) {
        self.name = name
        self.description = description
        self.version = version
        self.author = author
        self.license = license
        self.normalization = normalization
        self.labels = labels
        self.scoreCalibration = scoreCalibration
    }

    /// How input pixels in [0, 255] become the model's float input: `(pixel - mean) / std`; the
    /// type the metadata reader reads, such as `Normalization(mean: [127.5], std: [127.5])` for
    /// a model whose inputs are in [-1, 1].
    public typealias Normalization = NormalizationOptions

    /// One labels file: one category name per line, line *i* naming output element *i*.
    public struct Labels: Sendable, Equatable {
        /// The file's name in the model's zip, such as "labels.txt" or "labels_es.txt".
        public var fileName: String
        /// The labels, in output order (none may contain a line break).
        public var labels: [String]
        /// The locale of display names, such as "es"; nil for the category names.
        public var locale: String?

        /// Creates a labels file.
        public init(fileName: String, labels: [String], locale: String? = nil) {
            self.fileName = fileName
            self.labels = labels
            self.locale = locale
        }
    }

    /// Score calibration: each output score `x` becomes
    /// `scale / (1 + exp(-(slope * g(x) + offset)))` with one sigmoid per category.
    public struct ScoreCalibration: Sendable, Equatable {
        /// The file's name in the model's zip, such as "score_calibration.txt".
        public var fileName: String
        /// The file: one line per category, `scale,slope,offset[,min_score]`, or empty for the
        /// default score (MediaPipe's format, checked before writing).
        public var contents: Data
        /// `g`, the transformation applied to the score before the sigmoid.
        public var transformation: ScoreTransformation
        /// The score of a category without a sigmoid or below its `min_score`.
        public var defaultScore: Float

        /// Creates a score calibration.
        public init(fileName: String, contents: Data, transformation: ScoreTransformation, defaultScore: Float = 0) {
            self.fileName = fileName
            self.contents = contents
            self.transformation = transformation
            self.defaultScore = defaultScore
        }
    }
}
