import Foundation
import ImageTasks
import ServedModels
import TasksCommon

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
    var parameters: RequestParameters
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
            guard let length = Int(headerLength.trimmingCharacters(in: .whitespaces)), length >= 0, length <= body.count else {
                throw .badRequest(
                    "Header Inference-Header-Content-Length is \(headerLength), but the body has \(body.count) bytes.")
            }
            jsonPart = body.prefix(length)
            binary = body.dropFirst(length)
        }
        guard !jsonPart.isEmpty else { throw .badRequest("The request body is empty; expected an inference request in JSON.") }
        try JSONBounds.check(jsonPart, maxImages: maxImages)
        let wire: InferenceRequestWire
        do {
            wire = try InferenceRequestWire.decode(jsonPart, maxImages: maxImages)
        } catch {
            guard let headerLength else { throw .badRequest(InferenceRequestWire.problem(jsonPart, error)) }
            throw .badRequest(
                "The body's first \(jsonPart.count) bytes (header Inference-Header-Content-Length: \(headerLength)) are not "
                    + "a JSON object: the length must be that of the JSON inference request exactly.")
        }
        let json = wire.members
        id = try Self.optional(json["id"], as: String.self, "'id' must be a string")
        let requestParameters = try Self.object(json["parameters"], "'parameters'")
        parameters = try HTTPError.mapping { () throws(TasksError) in try ParameterParsing.parameters(json: requestParameters) }
        binaryOutput = try Self.flag(requestParameters["binary_data_output"], "Parameter 'binary_data_output'")
        guard let inputs = wire.inputs, inputs.count == 1 else {
            throw .badRequest("'inputs' must be an array of one input: a BYTES tensor of encoded images, shape [B].")
        }
        inputName = try Self.optional(inputs[0].members["name"], as: String.self, "Input 'name' must be a string") ?? "image"
        images = try Self.images(of: inputs[0], name: inputName, binary: binary, maxImages: maxImages)
        outputs = try Self.outputs(json["outputs"])
    }

    private static func images(
        of wireInput: InferenceRequestWire.Input, name: String, binary: Data, maxImages: Int
    ) throws(HTTPError) -> [Data] {
        let input = wireInput.members
        guard let datatype = input["datatype"] as? String, datatype == "BYTES" else {
            throw .badRequest(
                "Input '\(name)' has datatype \(JSONValue.text(input["datatype"])); expected BYTES (encoded images).")
        }
        guard let count = InferenceRequestWire.declaredCount(input["shape"]), count >= 1 else {
            throw .badRequest("Input '\(name)' has shape \(JSONValue.text(input["shape"])); expected [B] with B >= 1 images.")
        }
        guard count <= maxImages else {
            throw .badRequest("Input '\(name)' has \(count) images; at most \(maxImages) are allowed per request.")
        }
        let parameters = try object(input["parameters"], "Input '\(name)': 'parameters'")
        let images: [Data]
        if let value = parameters["binary_data_size"] {
            guard let size = JSONValue.integer(value) else {
                throw .badRequest("Input '\(name)' has binary_data_size \(JSONValue.text(value)); expected a number of bytes.")
            }
            guard size == binary.count else {
                throw .badRequest(
                    "Input '\(name)' has binary_data_size \(size), but \(binary.count) bytes follow the JSON header.")
            }
            images = try BinaryTensor.elements(binary, count: count, input: name)
        } else {
            images = try base64Elements(wireInput.elements, count: count, input: name)
        }
        guard images.count == count else {
            throw .badRequest("Input '\(name)' has shape [\(count)] but \(images.count) elements.")
        }
        return images
    }

    /// The decoded elements of a JSON BYTES tensor (decoded only when their number is the
    /// shape's `count`).
    private static func base64Elements(
        _ elements: InferenceRequestWire.Elements, count: Int, input: String
    ) throws(HTTPError) -> [Data] {
        switch elements {
        case .missing: throw .badRequest("Input '\(input)' has no 'data' array (or binary_data_size).")
        case .counted(let found): throw .badRequest("Input '\(input)' has shape [\(count)] but \(found) elements.")
        case .invalid(let index):
            throw .badRequest("Input '\(input)', element \(index): expected a base64 string of an encoded image.")
        case .decoded(let images): return images
        }
    }

    /// A member of type `T`, nil when absent.
    /// - Throws: `HTTPError` 400, "`what`, got VALUE.", when it has another type.
    private static func optional<T>(_ value: Any?, as type: T.Type, _ what: String) throws(HTTPError) -> T? {
        guard let value else { return nil }
        guard let typed = value as? T else { throw .badRequest("\(what), got \(JSONValue.text(value)).") }
        return typed
    }

    /// A `parameters` member (empty when absent): refused, not ignored, when it is not an
    /// object, since the request would be answered with the defaults.
    private static func object(_ value: Any?, _ what: String) throws(HTTPError) -> [String: Any] {
        try optional(value, as: [String: Any].self, "\(what) must be an object") ?? [:]
    }

    /// A boolean parameter (false when absent).
    private static func flag(_ value: Any?, _ what: String) throws(HTTPError) -> Bool {
        guard let value else { return false }
        guard let flag = JSONValue.boolean(value) else {
            throw .badRequest("\(what) must be true or false, got \(JSONValue.text(value)).")
        }
        return flag
    }

    private static func outputs(_ value: Any?) throws(HTTPError) -> [RequestedOutput] {
        guard let value else { return [] }
        guard let outputs = value as? [[String: Any]] else { throw .badRequest("'outputs' must be an array of objects.") }
        var requested: [RequestedOutput] = []
        for output in outputs {
            guard let name = output["name"] as? String else { throw .badRequest("An entry of 'outputs' has no name.") }
            let parameters = try object(output["parameters"], "Output '\(name)': 'parameters'")
            var entry = RequestedOutput(name: name)
            if parameters["binary_data"] != nil {
                entry.binary = try flag(parameters["binary_data"], "Output '\(name)': parameter 'binary_data'")
            }
            if let count = parameters["classification"] {
                guard let count = JSONValue.integer(count), count >= 1 else {
                    throw .badRequest(
                        "Output '\(name)': parameter 'classification' must be an integer >= 1, got \(JSONValue.text(count)).")
                }
                entry.classification = count
            }
            requested.append(entry)
        }
        return requested
    }
}
