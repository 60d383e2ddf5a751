import Foundation
import ImageTasks
import ServedModels
import TasksCommon
import Testing

/// OIP `parameters` and v1 query arguments read into `RequestParameters`, checked by the core's
/// rules: MediaPipe's messages for the options it refuses.
struct ParameterParsingTests {
    @Test(arguments: [
        (#"{"max_results":"3"}"#, "Parameter 'max_results' must be an integer, got 3."),
        (#"{"max_results":0}"#, "Invalid `max_results` option: value must be != 0."),
        (#"{"score_threshold":"high"}"#, "Parameter 'score_threshold' must be a number, got high."),
        (#"{"score_threshold":1e39}"#, "Parameter 'score_threshold' must be a number, got 1e+39."),
        (
            #"{"category_allowlist":["a"],"category_denylist":["b"]}"#,
            "`category_allowlist` and `category_denylist` are mutually exclusive options."
        ),
        (#"{"category_allowlist":[1]}"#, "Parameter 'category_allowlist' must be strings, got [1]."),
        (#"{"max_results":true}"#, "Parameter 'max_results' must be an integer, got true."),
        (#"{"score_threshold":false}"#, "Parameter 'score_threshold' must be a number, got false."),
        (
            #"{"l2_normalize":true}"#,
            "Parameter 'l2_normalize' is not taken per request: an embedder's l2_normalize is set when it is served "
                + "(vision-tasks serve --l2-normalize)."
        ),
        (
            #"{"quantize":false}"#,
            "Parameter 'quantize' is not taken per request: an embedder's quantize is set when it is served "
                + "(vision-tasks serve --quantize)."
        ),
    ])
    func invalidParameters(json: String, message: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        do {
            _ = try ParameterParsing.parameters(json: object)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.code == .invalidArgumentError)
            #expect(error.message == message)
        }
    }

    @Test(arguments: [
        (["max_results": "0"], "Invalid `max_results` option: value must be != 0."),
        (["max_results": "x"], "Parameter 'max_results' must be an integer, got x."),
        (["score_threshold": "inf"], "Parameter 'score_threshold' must be a number, got inf."),
        (
            ["category_allowlist": "a", "category_denylist": "b"],
            "`category_allowlist` and `category_denylist` are mutually exclusive options."
        ),
        (
            ["max_result": "1"],
            "Unknown query argument 'max_result'; the route takes max_results, score_threshold, category_allowlist, "
                + "category_denylist, display_names_locale."
        ),
    ])
    func invalidQueries(query: [String: String], message: String) {
        let error = #expect(throws: TasksError.self) { try ParameterParsing.parameters(query: query) }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.message == message)
    }

    @Test func queryListsAreCommaSeparated() throws {
        let parameters = try ParameterParsing.parameters(
            query: ["category_allowlist": "hotdog,,bagel", "max_results": "-1", "score_threshold": "0.25"])
        #expect(parameters.categoryAllowlist == ["hotdog", "bagel"])
        #expect(parameters.maxResults == -1 && parameters.scoreThreshold == 0.25)
    }
}
