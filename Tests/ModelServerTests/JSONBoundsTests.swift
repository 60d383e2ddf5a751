import Foundation
import Testing

@testable import ModelServer

/// JSON requests whose shape, not size, is the attack: every value outside the images becomes a
/// tree node, and each level of nesting costs the decoder once more per value below it. A few
/// KiB nested 400 deep took seconds of CPU, and 32 MB of zeros in an unknown member 1.3 GB of
/// memory, before these bounds.
struct JSONBoundsTests {
    static let input = #"{"name":"image","datatype":"BYTES","shape":[1],"data":["AA=="]}"#

    private func refusal(_ body: String, maxImages: Int = 8) -> HTTPError? {
        #expect(throws: HTTPError.self) {
            try InferenceRequest(body: Data(body.utf8), headerLength: nil, maxImages: maxImages)
        }
    }

    @Test func nestingBeyondTheLimitIsRefused() {
        let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let body = #"{"junk":\#(nested),"inputs":[\#(Self.input)]}"#
        let error = refusal(body)
        #expect(error?.status == 400)
        #expect(
            error?.message
                == "The request's JSON nests deeper than \(JSONBounds.maxDepth) levels (at byte offset \(7 + JSONBounds.maxDepth)); "
                + "an inference request needs 5.")
    }

    @Test func valuesBeyondTheLimitAreRefused() {
        let zeros = Array(repeating: "0", count: 200_000).joined(separator: ",")
        let error = refusal(#"{"junk":[\#(zeros)],"inputs":[\#(Self.input)]}"#)
        #expect(error?.status == 400)
        #expect(
            error?.message
                == "The request's JSON has more than 10008 values (arrays, objects and their elements); "
                + "the limit is 10000 plus --max-images.")
    }

    /// JSONDecoder takes a duplicated member's first value, JSONSerialization, Python and
    /// JavaScript its last: a proxy that checks a request could see other parameters than the
    /// server answers with. Refused, whatever escapes spell the name.
    @Test(arguments: [
        (#"{"inputs":[],"inputs":[\#(input)]}"#, "inputs"),
        (#"{"parameters":{"max_results":3,"max_results":10},"inputs":[\#(input)]}"#, "max_results"),
        (#"{"inputs":[{"name":"image","datatype":"BYTES","shape":[2],"shape":[1],"data":["AA=="]}]}"#, "shape"),
        (#"{"p\u0061rameters":{},"parameters" :{},"inputs":[\#(input)]}"#, "parameters"),
    ])
    func duplicateMembersAreRefused(body: String, name: String) {
        let error = refusal(body)
        #expect(error?.status == 400)
        #expect(
            error?.message
                == "The request's JSON has the member '\(name)' twice in one object (JSON parsers differ on which one counts).")
    }

    /// One name in different objects is no duplicate.
    @Test func aNameMayRecurInOtherObjects() throws {
        let body = #"{"parameters":{"name":"x"},"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"data":["AA=="]}]}"#
        let request = try InferenceRequest(body: Data(body.utf8), headerLength: nil, maxImages: 8)
        #expect(request.inputName == "image")
    }

    /// Brackets, braces and commas inside strings, escaped quotes among them, are not structure.
    @Test func stringsAreNotCounted() throws {
        let text = String(repeating: #"[{,\"\\"#, count: 20_000)
        let body = #"{"id":"\#(text)","inputs":[\#(Self.input)]}"#
        let request = try InferenceRequest(body: Data(body.utf8), headerLength: nil, maxImages: 8)
        #expect(request.id == String(repeating: #"[{,"\"#, count: 20_000))
        #expect(request.images == [Data([0])])
    }

    /// A request as deep as any valid one, with an allowlist of ImageNet's size and the most
    /// images, passes.
    @Test func largestValidRequestPasses() throws {
        let names = (0..<1001).map { "\"c\($0)\"" }.joined(separator: ",")
        let data = Array(repeating: #""AA==""#, count: 64).joined(separator: ",")
        let body =
            #"{"parameters":{"category_allowlist":[\#(names)]},"inputs":[{"name":"image","datatype":"BYTES","shape":[64],"data":[\#(data)]}]}"#
        let request = try InferenceRequest(body: Data(body.utf8), headerLength: nil, maxImages: 64)
        #expect(request.images.count == 64)
        #expect(request.parameters.categoryAllowlist.count == 1001)
    }
}
