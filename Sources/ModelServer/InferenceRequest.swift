import Foundation

/// An Open Inference Protocol v2 inference request for an image model: one BYTES input of
/// encoded images, shape [B], in the JSON form (each element base64, since JSON strings cannot
/// carry arbitrary bytes) or the binary tensor data extension (the JSON header's length in
/// `Inference-Header-Content-Length`, then each input's bytes in order; a BYTES element is a
/// 4-byte little-endian length and the bytes).
struct InferenceRequest {
    /// The client's id, echoed in the response.
    var id: String?
    /// The input's name (for error messages).
    var inputName: String
    /// The encoded images.
    var images: [Data]
    var parameters: ClassificationParameters
    /// The outputs asked for; empty: all, in the JSON form unless `binaryOutput`.
    var outputs: [RequestedOutput]
    /// `"binary_data_output": true`: every output in binary.
    var binaryOutput: Bool

    /// One entry of `"outputs"`.
    struct RequestedOutput {
        var name: String
        var binary: Bool?
        /// Triton's classification extension: the top K as strings.
        var classification: Int?
    }

    /// Parses a request body.
    /// - Parameters:
    ///   - body: the whole body.
    ///   - headerLength: `Inference-Header-Content-Length`, when the binary extension is used.
    ///   - maxImages: images per request at most.
    /// - Throws: `HTTPError` 400 naming the field and value at fault.
    init(body: Data, headerLength: String?, maxImages: Int) throws(HTTPError) {
        var binary = Data()
        var jsonPart = body
        if let headerLength {
            guard let length = Int(headerLength), length >= 0, length <= body.count else {
                throw .badRequest(
                    "Header Inference-Header-Content-Length is \(headerLength), but the body has \(body.count) bytes.")
            }
            jsonPart = body.prefix(length)
            binary = body.dropFirst(length)
        }
        guard !jsonPart.isEmpty else { throw .badRequest("The request body is empty; expected an inference request in JSON.") }
        guard let json = (try? JSONSerialization.jsonObject(with: jsonPart)) as? [String: Any] else {
            throw .badRequest("The request body is not a JSON object.")
        }
        id = json["id"] as? String
        let requestParameters = json["parameters"] as? [String: Any] ?? [:]
        parameters = try ParameterParsing.parameters(json: requestParameters)
        binaryOutput = requestParameters["binary_data_output"] as? Bool ?? false
        guard let inputs = json["inputs"] as? [[String: Any]], inputs.count == 1 else {
            throw .badRequest("'inputs' must be an array of one input: a BYTES tensor of encoded images, shape [B].")
        }
        let input = inputs[0]
        inputName = input["name"] as? String ?? "image"
        images = try Self.images(of: input, name: inputName, binary: binary, maxImages: maxImages)
        outputs = try Self.outputs(json["outputs"])
    }

    private static func images(of input: [String: Any], name: String, binary: Data, maxImages: Int) throws(HTTPError) -> [Data] {
        guard let datatype = input["datatype"] as? String, datatype == "BYTES" else {
            throw .badRequest("Input '\(name)' has datatype \(input["datatype"] ?? "none"); expected BYTES (encoded images).")
        }
        guard let shape = input["shape"] as? [Int], shape.count == 1, shape[0] >= 1 else {
            throw .badRequest("Input '\(name)' has shape \(input["shape"] ?? "none"); expected [B] with B >= 1 images.")
        }
        guard shape[0] <= maxImages else {
            throw .badRequest("Input '\(name)' has \(shape[0]) images; at most \(maxImages) are allowed per request.")
        }
        let parameters = input["parameters"] as? [String: Any] ?? [:]
        let images: [Data]
        if let size = parameters["binary_data_size"] as? Int {
            guard size == binary.count else {
                throw .badRequest(
                    "Input '\(name)' has binary_data_size \(size), but \(binary.count) bytes follow the JSON header.")
            }
            images = try BinaryTensor.elements(binary, input: name)
        } else {
            images = try base64Elements(input["data"], input: name)
        }
        guard images.count == shape[0] else {
            throw .badRequest("Input '\(name)' has shape [\(shape[0])] but \(images.count) elements.")
        }
        return images
    }

    private static func base64Elements(_ data: Any?, input: String) throws(HTTPError) -> [Data] {
        guard let strings = data as? [Any] else {
            throw .badRequest("Input '\(input)' has no 'data' array (or binary_data_size).")
        }
        var images: [Data] = []
        for (index, element) in strings.enumerated() {
            guard let text = element as? String, let bytes = Data(base64Encoded: text) else {
                throw .badRequest("Input '\(input)', element \(index): expected a base64 string of an encoded image.")
            }
            images.append(bytes)
        }
        return images
    }

    private static func outputs(_ value: Any?) throws(HTTPError) -> [RequestedOutput] {
        guard let value else { return [] }
        guard let outputs = value as? [[String: Any]] else { throw .badRequest("'outputs' must be an array of objects.") }
        var requested: [RequestedOutput] = []
        for output in outputs {
            guard let name = output["name"] as? String else { throw .badRequest("An entry of 'outputs' has no name.") }
            let parameters = output["parameters"] as? [String: Any] ?? [:]
            var entry = RequestedOutput(name: name, binary: parameters["binary_data"] as? Bool)
            if let count = parameters["classification"] {
                guard let count = count as? Int, count >= 1 else {
                    throw .badRequest("Output '\(name)': parameter 'classification' must be an integer >= 1, got \(count).")
                }
                entry.classification = count
            }
            requested.append(entry)
        }
        return requested
    }
}
