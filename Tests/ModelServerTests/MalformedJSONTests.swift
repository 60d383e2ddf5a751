import Foundation
import Testing

@testable import ModelServer

/// JSON that is an object in shape but holds a value that cannot be read (a number beyond
/// `Double`, a lone surrogate, bytes that are not UTF-8), or is not JSON at all: the 400 says
/// what is wrong and where, not that the body "is not a JSON object".
struct MalformedJSONTests {
    static let input = #"{"name":"image","datatype":"BYTES","shape":[1],"data":["AA=="]}"#

    @Test(arguments: [
        (
            #"{"parameters":{"max_results":1e400},"inputs":[\#(input)]}"#,
            "The request body is not valid JSON at parameters.max_results: Number 1e400 is not representable in Swift."
        ),
        (
            #"{"inputs":[{"name":"image","datatype":"BYTES","shape":[1e999],"data":["AA=="]}]}"#,
            "The request body is not valid JSON at inputs[0].shape[0]: Number 1e999 is not representable in Swift."
        ),
        (
            #"{"id":"\ud800","inputs":[\#(input)]}"#,
            "The request body is not valid JSON at id: Unexpected end of file during string parse (expected low-surrogate "
                + "code point but did not find one)."
        ),
        (#"{"inputs":[\#(input)]} x"#, "The request body is not valid JSON: Invalid value around character 77."),
        ("[1]", "The request body is not a JSON object."),
        ("null", "The request body is not a JSON object."),
    ])
    func unreadableJSONIsNamed(body: String, message: String) {
        let error = #expect(throws: HTTPError.self) {
            try InferenceRequest(body: Data(body.utf8), headerLength: nil, maxImages: 8)
        }
        #expect(error?.status == 400)
        #expect(error?.message == message)
    }

    /// A member of the wrong type is refused, not ignored: a request whose parameters were
    /// dropped would be answered with the defaults, a wrong answer that looks right.
    @Test(arguments: [
        (
            #"{"parameters":[{"max_results":1}],"inputs":[\#(input)]}"#,
            "'parameters' must be an object, got [{\"max_results\":1}]."
        ),
        (#"{"id":7,"inputs":[\#(input)]}"#, "'id' must be a string, got 7."),
        (
            #"{"inputs":[{"name":["x"],"datatype":"BYTES","shape":[1],"data":["AA=="]}]}"#,
            "Input 'name' must be a string, got [\"x\"]."
        ),
        (
            #"{"inputs":[{"name":"x","datatype":"BYTES","shape":[1],"data":["AA=="],"parameters":"binary"}]}"#,
            "Input 'x': 'parameters' must be an object, got binary."
        ),
        (
            #"{"inputs":[\#(input)],"outputs":[{"name":"classifications","parameters":3}]}"#,
            "Output 'classifications': 'parameters' must be an object, got 3."
        ),
        (#"{"inputs":[\#(input)],"outputs":[{"name":5}]}"#, "An entry of 'outputs' has no name."),
    ])
    func membersOfTheWrongTypeAreNamed(body: String, message: String) {
        let error = #expect(throws: HTTPError.self) {
            try InferenceRequest(body: Data(body.utf8), headerLength: nil, maxImages: 8)
        }
        #expect(error?.status == 400)
        #expect(error?.message == message)
    }

    @Test func bytesThatAreNotUTF8AreNamed() {
        let body = Data(#"{"id":""#.utf8) + Data([0xFF]) + Data(#"","inputs":[\#(Self.input)]}"#.utf8)
        let error = #expect(throws: HTTPError.self) {
            try InferenceRequest(body: body, headerLength: nil, maxImages: 8)
        }
        #expect(
            error?.message
                == "The request body is not valid JSON at id: Invalid UTF-8 sequence 1 bytes starting from character 7.")
    }
}
