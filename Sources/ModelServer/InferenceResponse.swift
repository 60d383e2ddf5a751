import Foundation
import ImageTasks
import ServedModels

/// Builds an OIP v2 inference response from the images' outcomes, for the model's one output:
/// - `classifications` (classifiers and labelers): a BYTES tensor, shape [B], of each image's
///   record as a JSON string, or with Triton's classification extension shape [B, K] of
///   `"score:index:label"` strings. K is the one asked for, at most the most categories any
///   image kept (as Triton caps it at the class count, so a huge K costs nothing); an image
///   with fewer is padded with empty strings.
/// - `embedding` (embedders): FP32 (or INT8 when quantized) numbers, shape [B, D], row-major.
enum InferenceResponse {
    static func response(
        model: String, version: String, output: ServedOutput, request: InferenceRequest, results: [ServedImage]
    ) throws(HTTPError) -> HTTPResponse {
        let requested = request.outputs.isEmpty ? [InferenceRequest.RequestedOutput(name: output.name)] : request.outputs
        var outputs: [Answer.Output] = []
        var binary = Data()
        for asked in requested {
            guard asked.name == output.name else {
                throw .badRequest("Unknown output '\(asked.name)'; model '\(model)' has one output, '\(output.name)'.")
            }
            let tensor = try Tensor(results, output: output, classification: asked.classification)
            let isBinary = asked.binary ?? request.binaryOutput
            outputs.append(
                Answer.Output(
                    name: asked.name, datatype: tensor.datatype, shape: tensor.shape,
                    parameters: isBinary ? Answer.BinaryData(binaryDataSize: tensor.binary.count) : nil,
                    data: isBinary ? nil : tensor.json))
            if isBinary { binary.append(tensor.binary) }
        }
        var response = try HTTPResponse.json(Answer(modelName: model, modelVersion: version, id: request.id, outputs: outputs))
        guard !binary.isEmpty else { return response }
        response.headers = [
            ("Content-Type", "application/octet-stream"), ("Inference-Header-Content-Length", String(response.body.count)),
        ]
        response.body.append(binary)
        return response
    }

    /// The OIP response's JSON (its header, with the binary extension).
    private struct Answer: Encodable {
        struct BinaryData: Encodable {
            let binaryDataSize: Int

            enum CodingKeys: String, CodingKey { case binaryDataSize = "binary_data_size" }
        }

        struct Output: Encodable {
            let name: String
            let datatype: String
            let shape: [Int]
            /// Set when the tensor's bytes follow the JSON (`binary_data_size`); `data` is nil then.
            let parameters: BinaryData?
            let data: TensorJSON?
        }

        let modelName: String
        let modelVersion: String
        /// The request's id, when it had one.
        let id: String?
        let outputs: [Output]

        enum CodingKeys: String, CodingKey {
            case modelName = "model_name", modelVersion = "model_version", id, outputs
        }
    }
}

/// A tensor's elements as JSON writes them: strings (BYTES), numbers (FP32, written as the
/// doubles they widen to) or integers (INT8).
private enum TensorJSON: Encodable {
    case strings([String])
    case numbers([Double])
    case integers([Int])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .strings(let values): try container.encode(values)
        case .numbers(let values): try container.encode(values)
        case .integers(let values): try container.encode(values)
        }
    }
}

/// One output tensor, in both forms.
private struct Tensor {
    let datatype: String
    let shape: [Int]
    /// The elements as JSON writes them.
    let json: TensorJSON
    /// The binary tensor data extension's form: BYTES elements length-prefixed, numbers little-endian.
    let binary: Data

    init(_ results: [ServedImage], output: ServedOutput, classification: Int?) throws(HTTPError) {
        if let width = output.width {
            guard classification == nil else {
                throw .badRequest("Output '\(output.name)' holds numbers; the classification parameter does not apply to it.")
            }
            self.init(numbers: results.compactMap(\.values), datatype: output.datatype, width: width)
        } else if let asked = classification {
            let count = min(asked, results.map(\.ranked.count).max() ?? 0)
            let elements = results.flatMap { result in
                (0..<count).map { rank in rank < result.ranked.count ? result.ranked[rank].tritonString : "" }
            }
            self.init(strings: elements, shape: [results.count, count])
        } else {
            self.init(strings: results.map(\.record), shape: [results.count])
        }
    }

    private init(strings: [String], shape: [Int]) {
        datatype = "BYTES"
        self.shape = shape
        json = .strings(strings)
        binary = BinaryTensor.encode(strings.map { Data($0.utf8) })
    }

    private init(numbers rows: [TensorValues], datatype: String, width: Int) {
        self.datatype = datatype
        shape = [rows.count, width]
        var binary = Data()
        var numbers: [Double] = []
        var integers: [Int] = []
        for row in rows {
            switch row {
            case .float32(let values):
                numbers += values.map { Double($0) }
                for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { binary.append(contentsOf: $0) } }
            case .int8(let values):
                integers += values.map { Int($0) }
                binary.append(contentsOf: values.map { UInt8(bitPattern: $0) })
            }
        }
        // One datatype per output: INT8 rows are integers, FP32 rows numbers.
        json = datatype == "INT8" ? .integers(integers) : .numbers(numbers)
        self.binary = binary
    }
}
