import Foundation

/// Builds an OIP v2 inference response from the images' outcomes: the output
/// `classifications` is a BYTES tensor, shape [B], of each image's record as a JSON string,
/// or with Triton's classification extension shape [B, K] of `"score:index:label"` strings.
/// K is the one asked for, at most the most categories any image kept (as Triton caps it at
/// the class count, so a huge K costs nothing); an image with fewer is padded with empty
/// strings.
enum InferenceResponse {
    /// The only output an image model has.
    static let outputName = "classifications"

    static func response(
        model: String, request: InferenceRequest, results: [ClassifiedImage]
    ) throws(HTTPError) -> HTTPResponse {
        let requested = request.outputs.isEmpty ? [InferenceRequest.RequestedOutput(name: outputName)] : request.outputs
        var outputs: [[String: Any]] = []
        var binary = Data()
        for output in requested {
            guard output.name == outputName else {
                throw .badRequest("Unknown output '\(output.name)'; model '\(model)' has one output, '\(outputName)'.")
            }
            let (elements, shape) = tensor(results, classification: output.classification)
            var entry: [String: Any] = ["name": output.name, "datatype": "BYTES", "shape": shape]
            if output.binary ?? request.binaryOutput {
                let encoded = BinaryTensor.encode(elements)
                entry["parameters"] = ["binary_data_size": encoded.count]
                binary.append(encoded)
            } else {
                entry["data"] = elements.map { String(decoding: $0, as: UTF8.self) }
            }
            outputs.append(entry)
        }
        var json: [String: Any] = ["model_name": model, "model_version": "1", "outputs": outputs]
        if let id = request.id { json["id"] = id }
        var response = HTTPResponse.json(json)
        guard !binary.isEmpty else { return response }
        response.headers = [
            ("Content-Type", "application/octet-stream"), ("Inference-Header-Content-Length", String(response.body.count)),
        ]
        response.body.append(binary)
        return response
    }

    private static func tensor(_ results: [ClassifiedImage], classification: Int?) -> ([Data], [Int]) {
        guard let asked = classification else { return (results.map(\.record), [results.count]) }
        let count = min(asked, results.map(\.ranked.count).max() ?? 0)
        let elements = results.flatMap { result in
            (0..<count).map { rank in Data((rank < result.ranked.count ? result.ranked[rank].tritonString : "").utf8) }
        }
        return (elements, [results.count, count])
    }
}
