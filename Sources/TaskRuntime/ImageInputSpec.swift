import Imaging
import LiteRT
import TFLiteMetadata
import TasksCommon

/// The model's image input, checked at creation as MediaPipe's `BuildInputImageTensorSpecs`
/// does: one `[1, H, W, 3]` tensor of type UINT8 or FLOAT32, RGB, and for FLOAT32 the
/// normalization that maps a byte `p` to a float. Two extensions MediaPipe refuses: per-channel
/// normalization (three means and standard deviations, as the TFLite Support Task Library
/// applies them) and INT8 inputs (the normalized float quantized with the tensor's scale and
/// zero point).
struct ImageInputSpec: Sendable {
    /// The tensor's width and height in pixels.
    let width: Int
    let height: Int
    /// Bytes as they are (uint8 models; normalization metadata is ignored, as in MediaPipe),
    /// normalized floats, or normalized and quantized int8 values.
    let element: TensorElement

    /// The largest input tensor accepted, in pixels: image classifiers take a few hundred pixels a
    /// side, and a corrupt shape must not make every image allocate gigabytes.
    static let maximumPixelCount = 4096 * 4096

    /// - Throws: `TasksError` with MediaPipe's code and message for each unsupported input.
    init(inputs: [TensorDescription], metadata: TensorMetadata?) throws(TasksError) {
        guard inputs.count == 1 else {
            throw .invalidArgument("Image tflite models are assumed to have a single input; this model has \(inputs.count).")
        }
        let tensor = inputs[0]
        if let properties = metadata?.imageProperties, properties.colorSpace != .rgb {
            throw .invalidArgument(
                "Only RGB color space is supported for now (input tensor \(tensor), color space \(properties.colorSpace)).")
        }
        guard tensor.shape.count == 4 else {
            throw .invalidArgument(
                "Only 4D tensors in BHWD layout are supported; input tensor \(tensor) has \(tensor.shape.count) dimensions.")
        }
        guard [.uint8, .int8, .float32].contains(tensor.elementType) else {
            throw .invalidArgument(
                "Type mismatch for input tensor \(tensor.name). Requested one of these types: uint8/int8/float32, got \(tensor.elementType)."
            )
        }
        let (batch, height, width, depth) = (tensor.shape[0], tensor.shape[1], tensor.shape[2], tensor.shape[3])
        guard batch == 1, depth == 3, width > 0, height > 0 else {
            throw .invalidArgument(
                "The input tensor should have dimensions 1 x height x width x depth, where depth = 3. "
                    + "Got \(batch) x \(height) x \(width) x \(depth) for input tensor \(tensor.name).")
        }
        guard width * height <= ImageInputSpec.maximumPixelCount else {
            throw .invalidArgument(
                "Input tensor \(tensor) is \(width) x \(height) pixels; at most "
                    + "\(ImageInputSpec.maximumPixelCount) pixels (4096 x 4096) are supported.")
        }
        self.width = width
        self.height = height
        self.element = try ImageInputSpec.element(of: tensor, normalization: metadata?.normalization)
    }

    private static func element(
        of tensor: TensorDescription, normalization: NormalizationOptions?
    ) throws(TasksError) -> TensorElement {
        switch tensor.elementType {
        case .float32:
            let (mean, std) = try ImageInputSpec.normalization(normalization, tensor: tensor)
            return TensorElement(mean: mean, std: std)
        case .int8:
            // Without its quantization the tensor's bytes have no meaning to write.
            guard let quantization = tensor.quantization, quantization.scale.isFinite, quantization.scale > 0,
                (-128...127).contains(quantization.zeroPoint)
            else {
                throw .invalidArgument(
                    "Input tensor \(tensor) has no valid quantization parameters (scale > 0 and a zero point in "
                        + "-128...127, got \(tensor.quantization.map { "scale \($0.scale), zero point \($0.zeroPoint)" } ?? "none")): "
                        + "an INT8 image input needs them to quantize the normalized pixels.")
            }
            let (mean, std) = try ImageInputSpec.normalization(normalization, tensor: tensor)
            return TensorElement(
                mean: mean, std: std, quantizationScale: quantization.scale, zeroPoint: Int(quantization.zeroPoint))
        default:
            return .uint8
        }
    }

    /// How to give a model the normalization it lacks, after MediaPipe's message.
    package static let addNormalizationHint =
        "Add it with `vision-tasks metadata write MODEL --mean M --std S --output OUT`, using the values "
        + "the model was trained with (127.5 and 127.5 for inputs in [-1, 1])."

    /// The checked means and standard deviations: 1 value each or 3 (red, green, blue).
    private static func normalization(
        _ options: NormalizationOptions?, tensor: TensorDescription
    ) throws(TasksError) -> (mean: [Float], std: [Float]) {
        guard let options else {
            // MediaPipe's words, then how to fix the model with this package's tool.
            throw .notFound(
                "Input tensor has type \(tensor.elementType.description.lowercased()): it requires specifying "
                    + "NormalizationOptions metadata to preprocess input images. " + addNormalizationHint)
        }
        let (mean, std) = (options.mean, options.std)
        guard mean.count == std.count else {
            throw .invalidArgument(
                "NormalizationOptions: expected mean and std of same dimension, got \(mean.count) and \(std.count).")
        }
        guard mean.count == 1 || mean.count == 3 else {
            throw .invalidArgument("NormalizationOptions: only 1 or 3 mean and std values are supported, got \(mean.count).")
        }
        guard (mean + std).allSatisfy(\.isFinite) else {
            throw .invalidArgument("NormalizationOptions must be finite numbers, got mean \(mean) and std \(std).")
        }
        guard std.allSatisfy({ abs($0) > 1e-6 }) else {
            throw .invalidArgument(
                "NormalizationOptions.std_values can't be 0. Please check if the tensor metadata has been populated correctly.")
        }
        // Finite values can still overflow: (0 - 1e35) / 1e-5 is not a Float.
        guard zip(mean, std).allSatisfy({ ((0 - $0) / $1).isFinite && ((255 - $0) / $1).isFinite }) else {
            throw .invalidArgument(
                "NormalizationOptions mean \(mean) and std \(std) map pixel values 0...255 outside the range of 32-bit floats.")
        }
        return (mean, std)
    }
}
