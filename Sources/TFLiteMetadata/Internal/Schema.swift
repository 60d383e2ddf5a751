/// Field ids (declaration order, a union taking two ids) of the tables this target reads.
///
/// From the TFLite model schema (`tensorflow/compiler/mlir/lite/schema/schema.fbs`,
/// file identifier "TFL3") and the TFLite Support metadata schema
/// (`tensorflow_lite_support/metadata/metadata_schema.fbs`, file identifier "M001").
/// The fields MediaPipe's image classifier reads, and those the metadata writer and `inspect` use.
package enum Schema {
    /// `table Model`.
    package enum Model {
        package static let version = 0
        package static let operatorCodes = 1
        package static let subgraphs = 2
        package static let buffers = 4
        package static let metadata = 6
        package static let signatureDefs = 7
        /// The number of fields this schema version declares (ids 0..<fieldCount).
        package static let fieldCount = 8
    }

    /// `table SubGraph` (TFLite schema).
    package enum SubGraph {
        package static let tensors = 0
        package static let inputs = 1
        package static let outputs = 2
        package static let operators = 3
        package static let name = 4
        /// The number of fields this schema version declares.
        package static let fieldCount = 6
    }

    /// `table Operator` (TFLite schema).
    package enum Operator {
        package static let opcodeIndex = 0
        package static let inputs = 1
        package static let outputs = 2
        /// The `builtin_options` union: its type byte, then the table.
        package static let builtinOptionsType = 3
        package static let builtinOptions = 4
    }

    /// `table OperatorCode` (TFLite schema): the builtin is the larger of the two code fields
    /// (`deprecated_builtin_code` holds codes below 127 for old readers).
    package enum OperatorCode {
        package static let deprecatedBuiltinCode = 0
        package static let version = 2
        package static let builtinCode = 3
    }

    /// `enum BuiltinOperator` values the graph editor reads or writes.
    package enum BuiltinOperator {
        package static let add: Int32 = 0
        package static let averagePool2D: Int32 = 1
        package static let conv2D: Int32 = 3
        package static let depthwiseConv2D: Int32 = 4
        package static let dequantize: Int32 = 6
        package static let fullyConnected: Int32 = 9
        package static let reshape: Int32 = 22
        package static let softmax: Int32 = 25
        package static let mean: Int32 = 40
        package static let squeeze: Int32 = 43
        package static let quantize: Int32 = 114

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
        package static func name(of code: Int32) -> String { names[code] ?? "builtin operator \(code)" }
    }

    /// `union BuiltinOptions` members the graph editor reads or writes, and their tables' fields.
    package enum BuiltinOptions {
        package static let conv2DOptions: UInt8 = 1
        package static let depthwiseConv2DOptions: UInt8 = 2
        package static let pool2DOptions: UInt8 = 5
        package static let fullyConnectedOptions: UInt8 = 8
        package static let softmaxOptions: UInt8 = 9
        package static let addOptions: UInt8 = 11
        package static let reshapeOptions: UInt8 = 17
        package static let reducerOptions: UInt8 = 27
        /// `SoftmaxOptions.beta`.
        package static let softmaxBeta = 0
    }

    /// `table Conv2DOptions` (dilations default to 1).
    package enum Conv2DOptions {
        package static let padding = 0
        package static let strideW = 1
        package static let strideH = 2
        package static let fusedActivationFunction = 3
        package static let dilationWFactor = 4
        package static let dilationHFactor = 5
    }

    /// `table DepthwiseConv2DOptions` (dilations default to 1).
    package enum DepthwiseConv2DOptions {
        package static let padding = 0
        package static let strideW = 1
        package static let strideH = 2
        package static let depthMultiplier = 3
        package static let fusedActivationFunction = 4
        package static let dilationWFactor = 5
        package static let dilationHFactor = 6
    }

    /// `table Pool2DOptions`.
    package enum Pool2DOptions {
        package static let padding = 0
        package static let strideW = 1
        package static let strideH = 2
        package static let filterWidth = 3
        package static let filterHeight = 4
        package static let fusedActivationFunction = 5
    }

    /// `table AddOptions` and `table FullyConnectedOptions`: the fused activation is field 0 of both.
    package enum FusedActivationOptions {
        package static let fusedActivationFunction = 0
    }

    /// `table ReshapeOptions`.
    package enum ReshapeOptions {
        package static let newShape = 0
    }

    /// `table ReducerOptions` (`MEAN`).
    package enum ReducerOptions {
        package static let keepDims = 0
    }

    /// `enum Padding`.
    package enum Padding {
        package static let same: UInt8 = 0
        package static let valid: UInt8 = 1
    }

    /// `enum ActivationFunctionType` values training supports.
    package enum ActivationFunctionType {
        package static let none: UInt8 = 0
        package static let relu: UInt8 = 1
        package static let relu6: UInt8 = 3
    }

    /// `table SignatureDef` and its `table TensorMap` (TFLite schema).
    package enum SignatureDef {
        package static let inputs = 0
        package static let outputs = 1
        package static let signatureKey = 2
        package static let subgraphIndex = 4
        package static let tensorMapName = 0
        package static let tensorMapIndex = 1
    }

    /// `table Tensor` (TFLite schema).
    package enum Tensor {
        package static let shape = 0
        package static let type = 1
        package static let buffer = 2
        package static let name = 3
        package static let quantization = 4
    }

    /// `enum TensorType` values the graph editor writes.
    package enum TensorType {
        package static let float32: UInt8 = 0
        package static let int32: UInt8 = 2
        package static let uint8: UInt8 = 3
        package static let int8: UInt8 = 9
    }

    /// `table QuantizationParameters` (TFLite schema).
    package enum QuantizationParameters {
        package static let scale = 2
        package static let zeroPoint = 3
        package static let quantizedDimension = 6
    }

    /// `table Buffer`.
    package enum Buffer {
        package static let data = 0
        /// Absolute file offset of data stored after the FlatBuffer (models over 2 GB); valid when > 1.
        package static let offset = 1
        package static let size = 2
    }

    /// `table Metadata` (an entry of `Model.metadata`).
    package enum Metadata {
        package static let name = 0
        package static let buffer = 1
    }

    /// `table ModelMetadata` (the root of the "M001" buffer).
    package enum ModelMetadata {
        package static let name = 0
        package static let description = 1
        package static let version = 2
        package static let subgraphMetadata = 3
        package static let author = 4
        package static let license = 5
        package static let minParserVersion = 7
    }

    /// `table SubGraphMetadata`.
    package enum SubGraphMetadata {
        package static let inputTensorMetadata = 2
        package static let outputTensorMetadata = 3
    }

    /// `table TensorMetadata`.
    package enum TensorMetadata {
        package static let name = 0
        package static let description = 1
        package static let content = 3
        package static let processUnits = 4
        package static let associatedFiles = 6
    }

    /// `table Content`: the `content_properties` union.
    package enum Content {
        package static let propertiesType = 0
        package static let properties = 1
        /// `ContentProperties` union member `ImageProperties`.
        /// `ContentProperties` union members.
        package static let featurePropertiesType: UInt8 = 1
        package static let imagePropertiesType: UInt8 = 2
    }

    /// `table ImageProperties`.
    package enum ImageProperties {
        package static let colorSpace = 0
    }

    /// `table ProcessUnit`: the `options` union.
    package enum ProcessUnit {
        package static let optionsType = 0
        package static let options = 1
        /// `ProcessUnitOptions` union members this target decodes.
        package static let normalizationOptionsType: UInt8 = 1
        package static let scoreCalibrationOptionsType: UInt8 = 2
        package static let scoreThresholdingOptionsType: UInt8 = 3

        /// The schema's name of a `ProcessUnitOptions` member, as `EnumNameProcessUnitOptions`.
        package static func optionsTypeName(_ type: UInt8) -> String {
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
    package enum NormalizationOptions {
        package static let mean = 0
        package static let std = 1
    }

    /// `table ScoreCalibrationOptions`.
    package enum ScoreCalibrationOptions {
        package static let scoreTransformation = 0
        package static let defaultScore = 1
    }

    /// `table ScoreThresholdingOptions`.
    package enum ScoreThresholdingOptions {
        package static let globalScoreThreshold = 0
    }

    /// `table AssociatedFile`.
    package enum AssociatedFile {
        package static let name = 0
        package static let description = 1
        package static let type = 2
        package static let locale = 3
    }
}
