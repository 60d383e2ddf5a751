import LiteRT
import TFLiteMetadata
import TasksCommon

/// What the classifier knows about one output head, resolved once at creation: how to read
/// its scores, its labels and display names, and its calibration.
package struct ClassificationHead: Sendable {
    /// The head (output tensor) index.
    package let index: Int
    /// The output tensor metadata's name; `""` without metadata, as MediaPipe iOS reports it.
    package let name: String
    /// The number of categories N (the output's element count).
    let categoryCount: Int
    /// The output's quantization, or nil for float32 scores.
    let quantization: Quantization?
    /// Whether the quantized scores are INT8 (else UINT8).
    let signedScores: Bool
    /// Category names from the first label file, or nil when the head has no labels.
    package var labels: [String]?
    /// Display names from the label file in the requested locale, or nil when there is none.
    var displayNames: [String]?
    /// The metadata's ScoreThresholdingOptions threshold (unused by MediaPipe; ML Kit's custom
    /// models use it when no confidence threshold is set).
    let metadataScoreThreshold: Float?
    /// The score calibration, when the metadata has one.
    let calibrator: ScoreCalibrator?

    /// - Parameters:
    ///   - tensor: the output tensor; every dimension but the last 1 (`[N]`, `[1, N]`, `[1, 1, N]`,
    ///     ...), FLOAT32, UINT8 or INT8 (with its quantization).
    ///   - metadata: its tensor metadata, if any.
    ///   - files: the model's associated files.
    ///   - locale: the display-names locale.
    /// - Throws: `TasksError` for an unsupported output, a missing associated file, a label or
    ///   calibration file whose line count is not N.
    init(
        index: Int, tensor: TensorDescription, metadata: TensorMetadata?, files: AssociatedFiles, locale: String
    ) throws(TasksError) {
        let shape = tensor.shape
        // MediaPipe reads any output as a flat list of scores; only these shapes make that a
        // list of categories (a batch of 2, or [7, 143], would mix images or axes).
        guard shape.dropLast().allSatisfy({ $0 == 1 }), let count = shape.last, count > 0 else {
            throw .invalidArgument(
                "Output tensor \(index) \(tensor) has an unsupported shape: expected [N], [1, N], "
                    + "[1, 1, N] or [1, 1, 1, N] (every dimension but the last equal to 1).")
        }
        guard [.float32, .uint8, .int8].contains(tensor.elementType) else {
            throw .invalidArgument(
                "Output tensor \(index) \(tensor) has an unsupported type: expected FLOAT32, UINT8 or INT8.")
        }
        if tensor.elementType == .int8 {
            // An int8 score without its scale and zero point has no meaning (MediaPipe reads
            // uint8 without them as scale 1, zero point 0; it has no int8 outputs).
            guard let quantization = tensor.quantization, quantization.scale.isFinite, quantization.scale > 0 else {
                throw .invalidArgument(
                    "Output tensor \(index) \(tensor) has no valid quantization parameters (scale > 0): "
                        + "INT8 scores cannot be dequantized without them.")
            }
        }
        self.index = index
        self.name = metadata?.name ?? ""
        self.categoryCount = count
        self.metadataScoreThreshold = metadata?.scoreThresholding?.globalScoreThreshold
        self.quantization =
            tensor.elementType == .float32 ? nil : (tensor.quantization ?? Quantization(scale: 1, zeroPoint: 0))
        self.signedScores = tensor.elementType == .int8
        let labelFiles = metadata?.associatedFiles(ofType: .tensorAxisLabels) ?? []
        self.labels = try labelFiles.first.map { file throws(TasksError) in
            try ClassificationHead.lines(of: file, in: files, expected: count, tensor: tensor)
        }
        // An empty locale takes the first label file, as MediaPipe does.
        let displayFile = locale.isEmpty ? labelFiles.first : labelFiles.first { $0.locale == locale }
        self.displayNames = try displayFile.map { file throws(TasksError) in
            try ClassificationHead.lines(of: file, in: files, expected: count, tensor: tensor)
        }
        self.calibrator = try metadata?.scoreCalibration.map { options throws(TasksError) in
            try ClassificationHead.calibrator(options, metadata: metadata, files: files, count: count, tensor: tensor)
        }
    }

    private static func lines(
        of file: AssociatedFileInfo, in files: AssociatedFiles, expected: Int,
        tensor: TensorDescription
    ) throws(TasksError) -> [String] {
        let labels = LabelFile.parse(try files.contents(of: file.name))
        guard labels.count == expected else {
            throw .invalidArgument(
                "Mismatch between number of labels (\(labels.count)) in \(file.name) "
                    + "and number of categories (\(expected)) of output tensor \(tensor).")
        }
        return labels
    }

    private static func calibrator(
        _ options: ScoreCalibrationOptions, metadata: TensorMetadata?, files: AssociatedFiles,
        count: Int, tensor: TensorDescription
    ) throws(TasksError) -> ScoreCalibrator {
        guard let file = metadata?.associatedFiles(ofType: .tensorAxisScoreCalibration).first else {
            throw .notFound(
                "Found ScoreCalibrationOptions but no TENSOR_AXIS_SCORE_CALIBRATION associated file for output tensor \(tensor).")
        }
        let sigmoids = try ScoreCalibrationFile.parse(try files.contents(of: file.name))
        guard sigmoids.count == count else {
            throw .invalidArgument(
                "Mismatch between number of sigmoids (\(sigmoids.count)) in \(file.name) "
                    + "and number of elements in the input scores tensor (\(count)).")
        }
        return ScoreCalibrator(transformation: options.transformation, defaultScore: options.defaultScore, sigmoids: sigmoids)
    }

    /// The head's scores as floats: dequantized (`scale · (q − zeroPoint)`) and calibrated.
    func scores(from bytes: UnsafeRawBufferPointer) -> [Float] {
        [Float](unsafeUninitializedCapacity: categoryCount) { scores, count in
            readScores(from: bytes, into: scores)
            count = categoryCount
        }
    }

    /// Writes the head's `categoryCount` scores, dequantized and calibrated, into `scores`
    /// (at least `categoryCount` elements; `bytes` holds the output tensor).
    func readScores(from bytes: UnsafeRawBufferPointer, into scores: UnsafeMutableBufferPointer<Float>) {
        Dequantization.read(bytes, count: categoryCount, quantization: quantization, signed: signedScores, into: scores)
        calibrator?.calibrate(UnsafeMutableBufferPointer(rebasing: scores[0..<categoryCount]))
    }
}
