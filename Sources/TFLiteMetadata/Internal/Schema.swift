/// Field ids (declaration order, a union taking two ids) of the tables this target reads.
///
/// From the TFLite model schema (`tensorflow/compiler/mlir/lite/schema/schema.fbs`,
/// file identifier "TFL3") and the TFLite Support metadata schema
/// (`tensorflow_lite_support/metadata/metadata_schema.fbs`, file identifier "M001").
/// The fields MediaPipe's image classifier reads, and those the metadata writer and `inspect` use.
enum Schema {
    /// `table Model`.
    enum Model {
        static let version = 0
        static let operatorCodes = 1
        static let subgraphs = 2
        static let buffers = 4
        static let metadata = 6
        static let signatureDefs = 7
        /// The number of fields this schema version declares (ids 0..<fieldCount).
        static let fieldCount = 8
    }

    /// `table SubGraph` (TFLite schema).
    enum SubGraph {
        static let tensors = 0
        static let inputs = 1
        static let outputs = 2
        static let operators = 3
        static let name = 4
        /// The number of fields this schema version declares.
        static let fieldCount = 6
    }

    /// `table Operator` (TFLite schema).
    enum Operator {
        static let opcodeIndex = 0
        static let inputs = 1
        static let outputs = 2
        /// The `builtin_options` union: its type byte, then the table.
        static let builtinOptionsType = 3
        static let builtinOptions = 4
    }

    /// `table OperatorCode` (TFLite schema): the builtin is the larger of the two code fields
    /// (`deprecated_builtin_code` holds codes below 127 for old readers).
    enum OperatorCode {
        static let deprecatedBuiltinCode = 0
        static let version = 2
        static let builtinCode = 3
    }

    /// `enum BuiltinOperator` values the graph editor reads or writes.
    enum BuiltinOperator {
        static let add: Int32 = 0
        static let averagePool2D: Int32 = 1
        static let conv2D: Int32 = 3
        static let depthwiseConv2D: Int32 = 4
        static let dequantize: Int32 = 6
        static let fullyConnected: Int32 = 9
        static let reshape: Int32 = 22
        static let softmax: Int32 = 25
        static let mean: Int32 = 40
        static let squeeze: Int32 = 43
        static let quantize: Int32 = 114

        /// The schema's names of the codes below 128 that image models commonly hold, for messages.
        private static let names: [Int32: String] = [
            0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D", 4: "DEPTHWISE_CONV_2D", 5: "DEPTH_TO_SPACE",
            6: "DEQUANTIZE", 8: "FLOOR", 9: "FULLY_CONNECTED", 11: "L2_NORMALIZATION", 14: "LOGISTIC", 17: "MAX_POOL_2D",
            18: "MUL", 19: "RELU", 21: "RELU6", 22: "RESHAPE", 23: "RESIZE_BILINEAR", 25: "SOFTMAX", 26: "SPACE_TO_DEPTH",
            28: "TANH", 32: "CUSTOM", 34: "PAD", 36: "GATHER", 39: "TRANSPOSE", 40: "MEAN", 41: "SUB", 42: "DIV",
            43: "SQUEEZE", 45: "STRIDED_SLICE", 49: "SPLIT", 53: "CAST", 65: "SLICE", 67: "TRANSPOSE_CONV", 74: "SUM",
            77: "SHAPE", 83: "PACK", 88: "UNPACK", 92: "SQUARED_DIFFERENCE", 97: "RESIZE_NEAREST_NEIGHBOR",
            98: "LEAKY_RELU", 114: "QUANTIZE", 117: "HARD_SWISH",
        ]

        /// The schema's name of `code` ("SQUEEZE"), or "builtin operator <code>" for one not listed.
        static func name(of code: Int32) -> String { names[code] ?? "builtin operator \(code)" }
    }

    /// `union BuiltinOptions` members the graph editor reads or writes, and their tables' fields.
    enum BuiltinOptions {
        static let conv2DOptions: UInt8 = 1
        static let depthwiseConv2DOptions: UInt8 = 2
        static let pool2DOptions: UInt8 = 5
        static let fullyConnectedOptions: UInt8 = 8
        static let softmaxOptions: UInt8 = 9
        static let addOptions: UInt8 = 11
        static let reshapeOptions: UInt8 = 17
        static let reducerOptions: UInt8 = 27
        /// `SoftmaxOptions.beta`.
        static let softmaxBeta = 0
    }

    /// `table Conv2DOptions` (dilations default to 1).
    enum Conv2DOptions {
        static let padding = 0
        static let strideW = 1
        static let strideH = 2
        static let fusedActivationFunction = 3
        static let dilationWFactor = 4
        static let dilationHFactor = 5
    }

    /// `table DepthwiseConv2DOptions` (dilations default to 1).
    enum DepthwiseConv2DOptions {
        static let padding = 0
        static let strideW = 1
        static let strideH = 2
        static let depthMultiplier = 3
        static let fusedActivationFunction = 4
        static let dilationWFactor = 5
        static let dilationHFactor = 6
    }

    /// `table Pool2DOptions`.
    enum Pool2DOptions {
        static let padding = 0
        static let strideW = 1
        static let strideH = 2
        static let filterWidth = 3
        static let filterHeight = 4
        static let fusedActivationFunction = 5
    }

    /// `table AddOptions` and `table FullyConnectedOptions`: the fused activation is field 0 of both.
    enum FusedActivationOptions {
        static let fusedActivationFunction = 0
    }

    /// `table ReshapeOptions`.
    enum ReshapeOptions {
        static let newShape = 0
    }

    /// `table ReducerOptions` (`MEAN`).
    enum ReducerOptions {
        static let keepDims = 0
    }

    /// `enum Padding`.
    enum Padding {
        static let same: UInt8 = 0
        static let valid: UInt8 = 1
    }

    /// `enum ActivationFunctionType` values training supports.
    enum ActivationFunctionType {
        static let none: UInt8 = 0
        static let relu: UInt8 = 1
        static let relu6: UInt8 = 3
    }

    /// `table SignatureDef` and its `table TensorMap` (TFLite schema).
    enum SignatureDef {
        static let inputs = 0
        static let outputs = 1
        static let signatureKey = 2
        static let subgraphIndex = 4
        static let tensorMapName = 0
        static let tensorMapIndex = 1
    }

    /// `table Tensor` (TFLite schema).
    enum Tensor {
        static let shape = 0
        static let type = 1
        static let buffer = 2
        static let name = 3
        static let quantization = 4
    }

    /// `enum TensorType` values the graph editor writes.
    enum TensorType {
        static let float32: UInt8 = 0
        static let int32: UInt8 = 2
        static let uint8: UInt8 = 3
        static let int8: UInt8 = 9
    }

    /// `table QuantizationParameters` (TFLite schema).
    enum QuantizationParameters {
        static let scale = 2
        static let zeroPoint = 3
        static let quantizedDimension = 6
    }

    /// `table Buffer`.
    enum Buffer {
        static let data = 0
        /// Absolute file offset of data stored after the FlatBuffer (models over 2 GB); valid when > 1.
        static let offset = 1
        static let size = 2
    }

    /// `table Metadata` (an entry of `Model.metadata`).
    enum Metadata {
        static let name = 0
        static let buffer = 1
    }

    /// `table ModelMetadata` (the root of the "M001" buffer).
    enum ModelMetadata {
        static let name = 0
        static let description = 1
        static let version = 2
        static let subgraphMetadata = 3
        static let author = 4
        static let license = 5
        static let minParserVersion = 7
    }

    /// `table SubGraphMetadata`.
    enum SubGraphMetadata {
        static let inputTensorMetadata = 2
        static let outputTensorMetadata = 3
    }

    /// `table TensorMetadata`.
    enum TensorMetadata {
        static let name = 0
        static let description = 1
        static let content = 3
        static let processUnits = 4
        static let associatedFiles = 6
    }

    /// `table Content`: the `content_properties` union.
    enum Content {
        static let propertiesType = 0
        static let properties = 1
        /// `ContentProperties` union member `ImageProperties`.
        /// `ContentProperties` union members.
        static let featurePropertiesType: UInt8 = 1
        static let imagePropertiesType: UInt8 = 2
    }

    /// `table ImageProperties`.
    enum ImageProperties {
        static let colorSpace = 0
    }

    /// `table ProcessUnit`: the `options` union.
    enum ProcessUnit {
        static let optionsType = 0
        static let options = 1
        /// `ProcessUnitOptions` union members this target decodes.
        static let normalizationOptionsType: UInt8 = 1
        static let scoreCalibrationOptionsType: UInt8 = 2
        static let scoreThresholdingOptionsType: UInt8 = 3

        /// The schema's name of a `ProcessUnitOptions` member, as `EnumNameProcessUnitOptions`.
        static func optionsTypeName(_ type: UInt8) -> String {
            switch type {
            case 0: "NONE"
            case 1: "NormalizationOptions"
            case 2: "ScoreCalibrationOptions"
            case 3: "ScoreThresholdingOptions"
            case 4: "BertTokenizerOptions"
            case 5: "SentencePieceTokenizerOptions"
            case 6: "RegexTokenizerOptions"
            default: "\(type)"
            }
        }
    }

    /// `table NormalizationOptions`.
    enum NormalizationOptions {
        static let mean = 0
        static let std = 1
    }

    /// `table ScoreCalibrationOptions`.
    enum ScoreCalibrationOptions {
        static let scoreTransformation = 0
        static let defaultScore = 1
    }

    /// `table ScoreThresholdingOptions`.
    enum ScoreThresholdingOptions {
        static let globalScoreThreshold = 0
    }

    /// `table AssociatedFile`.
    enum AssociatedFile {
        static let name = 0
        static let description = 1
        static let type = 2
        static let locale = 3
    }
}
