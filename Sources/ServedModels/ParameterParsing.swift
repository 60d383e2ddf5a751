import Foundation
import ImageTasks
import TasksCommon

/// Reads `RequestParameters` from an OIP `parameters` object or v1 query arguments, checked by
/// the core's rules (`RequestParameters.check`). Every error is `TasksError` invalidArgument,
/// which the server answers with 400.
package enum ParameterParsing {
    /// The names accepted, for error messages.
    package static let names = [
        "max_results", "score_threshold", "category_allowlist", "category_denylist", "display_names_locale",
    ]

    /// The embedder's options, which change the values it gives: fixed when a model is served
    /// (`serve --l2-normalize`, `--quantize`), so a request that spells one is refused rather
    /// than answered with values it did not ask for.
    package static let servingOptions = ["l2_normalize": "--l2-normalize", "quantize": "--quantize"]

    /// From a JSON object (`"parameters"` of an inference request); unknown keys are ignored,
    /// as OIP allows (Triton's client adds its own), but for `servingOptions`.
    /// - Throws: `TasksError` invalidArgument for a value that does not parse, a serving option, or
    ///   options the core refuses (`RequestParameters.check`).
    package static func parameters(json: [String: Any]) throws(TasksError) -> RequestParameters {
        if let key = json.keys.sorted().first(where: { servingOptions[$0] != nil }), let option = servingOptions[key] {
            throw .invalidArgument(
                "Parameter '\(key)' is not taken per request: an embedder's \(key) is set when it is served "
                    + "(vision-tasks serve \(option)).")
        }
        var parameters = RequestParameters()
        if let value = json["max_results"] {
            guard let count = JSONValue.integer(value) else { throw invalid("max_results", value, "an integer") }
            parameters.maxResults = count
        }
        if let value = json["score_threshold"] {
            // 1e39 is a JSON number but an infinite Float, which would drop every category unsaid.
            guard let number = JSONValue.number(value), Float(number).isFinite else {
                throw invalid("score_threshold", value, "a number")
            }
            parameters.scoreThreshold = Float(number)
        }
        parameters.categoryAllowlist = try names(json["category_allowlist"], key: "category_allowlist")
        parameters.categoryDenylist = try names(json["category_denylist"], key: "category_denylist")
        if let value = json["display_names_locale"] {
            guard let locale = value as? String else { throw invalid("display_names_locale", value, "a string") }
            parameters.displayNamesLocale = locale
        }
        try parameters.check()
        return parameters
    }

    /// From query arguments (`?max_results=3&category_allowlist=a,b`).
    /// - Parameter others: the route's own arguments, besides the parameters.
    /// - Throws: `TasksError` invalidArgument for a value that does not parse, an argument of
    ///   another name (a misspelt one would otherwise be ignored without a word), or options the
    ///   core refuses (`RequestParameters.check`).
    package static func parameters(query: [String: String], others: Set<String> = []) throws(TasksError) -> RequestParameters {
        if let unknown = query.keys.sorted().first(where: { !names.contains($0) && !others.contains($0) }) {
            throw .invalidArgument(
                "Unknown query argument '\(unknown)'; the route takes \((names + others.sorted()).joined(separator: ", ")).")
        }
        var parameters = RequestParameters()
        if let text = query["max_results"] {
            guard let count = Int(text) else { throw invalid("max_results", text, "an integer") }
            parameters.maxResults = count
        }
        if let text = query["score_threshold"] {
            guard let number = Float(text), number.isFinite else { throw invalid("score_threshold", text, "a number") }
            parameters.scoreThreshold = number
        }
        parameters.categoryAllowlist = list(query["category_allowlist"])
        parameters.categoryDenylist = list(query["category_denylist"])
        parameters.displayNamesLocale = query["display_names_locale"]
        try parameters.check()
        return parameters
    }

    /// A list given as a JSON array of strings or one comma-separated string (OIP parameter
    /// values are scalars, so Triton's client can only send the latter).
    private static func names(_ value: Any?, key: String) throws(TasksError) -> [String] {
        switch value {
        case nil: return []
        case let text as String: return list(text)
        case let array as [Any]:
            let names = array.compactMap { $0 as? String }
            guard names.count == array.count else { throw invalid(key, value!, "strings") }
            return names
        default: throw invalid(key, value!, "a string or an array of strings")
        }
    }

    private static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
    }

    private static func invalid(_ key: String, _ value: Any, _ expected: String) -> TasksError {
        .invalidArgument("Parameter '\(key)' must be \(expected), got \(JSONValue.text(value)).")
    }
}
