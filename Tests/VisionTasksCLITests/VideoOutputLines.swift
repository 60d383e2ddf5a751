import Foundation
import Testing

/// What `classify-video` and `live` print with `--format jsonl`: one
/// `{"timestampInMilliseconds", "classifications"}` line per classified frame, then one
/// `{"summary": [...]}` (classify-video) or `{"statistics": {...}}` (live) line.
enum VideoOutput {
    /// One frame's line.
    struct Frame: Decodable, Sendable {
        let timestampInMilliseconds: Int
        let classifications: [ImageOutcome.Head]

        /// The first head's first category.
        var top: ImageOutcome.Category? { classifications.first?.categories.first }
    }

    /// One span of `classify-video`'s summary: a run of frames with the same top category.
    struct Span: Decodable, Equatable, Sendable, CustomStringConvertible {
        let category: String
        let index: Int?
        let fromMilliseconds: Int
        let toMilliseconds: Int
        let frames: Int

        var description: String {
            "\(category) (\(index.map(String.init) ?? "nil")) \(fromMilliseconds)-\(toMilliseconds) ms, \(frames) frames"
        }
    }

    /// `live`'s final counters.
    struct Statistics: Decodable, Equatable, Sendable {
        let framesReceived: Int
        let framesProcessed: Int
        let framesDropped: Int
        let lastLatencyInMilliseconds: Double?
    }

    private struct SummaryLine: Decodable { let summary: [Span] }
    private struct StatisticsLine: Decodable { let statistics: Statistics }

    static let frameKeys: Set<String> = ["timestampInMilliseconds", "classifications"]
    static let spanKeys: Set<String> = ["category", "index", "fromMilliseconds", "toMilliseconds", "frames"]
    static let statisticsKeys: Set<String> = ["framesReceived", "framesProcessed", "framesDropped", "lastLatencyInMilliseconds"]

    /// `classify-video --format jsonl` output: frame lines, then exactly one summary line, each
    /// an object with exactly the documented keys.
    static func classifyVideo(
        _ lines: [String], context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (frames: [Frame], summary: [Span]) {
        let last = try #require(lines.last, "no output at all:\n\(context)", sourceLocation: sourceLocation)
        let frames = try frameLines(lines.dropLast(), context: context, sourceLocation: sourceLocation)
        let object = try jsonObject(last, context: context, sourceLocation: sourceLocation)
        #expect(Set(object.keys) == ["summary"], "last line: \(last)", sourceLocation: sourceLocation)
        for span in object["summary"] as? [[String: Any]] ?? [] {
            #expect(Set(span.keys) == spanKeys, "summary span keys: \(span.keys.sorted())", sourceLocation: sourceLocation)
        }
        let summary = try #require(
            try? JSONDecoder().decode(SummaryLine.self, from: Data(last.utf8)),
            "last line is not {\"summary\": [...]}:\n\(context)", sourceLocation: sourceLocation)
        return (frames, summary.summary)
    }

    /// `live --format jsonl` output: result lines, then exactly one statistics line.
    static func live(
        _ lines: [String], context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (results: [Frame], statistics: Statistics) {
        let last = try #require(lines.last, "no output at all:\n\(context)", sourceLocation: sourceLocation)
        let results = try frameLines(lines.dropLast(), context: context, sourceLocation: sourceLocation)
        let object = try jsonObject(last, context: context, sourceLocation: sourceLocation)
        #expect(Set(object.keys) == ["statistics"], "last line: \(last)", sourceLocation: sourceLocation)
        #expect(
            Set((object["statistics"] as? [String: Any] ?? [:]).keys) == statisticsKeys, "last line: \(last)",
            sourceLocation: sourceLocation)
        let statistics = try #require(
            try? JSONDecoder().decode(StatisticsLine.self, from: Data(last.utf8)),
            "last line is not {\"statistics\": {...}}:\n\(context)", sourceLocation: sourceLocation)
        return (results, statistics.statistics)
    }

    private static func frameLines(
        _ lines: ArraySlice<String>, context: String,
        sourceLocation: SourceLocation
    ) throws -> [Frame] {
        try lines.enumerated().map { number, line in
            let object = try jsonObject(line, context: context, sourceLocation: sourceLocation)
            #expect(
                Set(object.keys) == frameKeys, "line \(number + 1) keys: \(object.keys.sorted())", sourceLocation: sourceLocation)
            return try #require(
                try? JSONDecoder().decode(Frame.self, from: Data(line.utf8)),
                "line \(number + 1) is not a frame result: \(line)\n\(context)", sourceLocation: sourceLocation)
        }
    }

    private static func jsonObject(_ line: String, context: String, sourceLocation: SourceLocation) throws -> [String: Any] {
        try #require(
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
            "not one JSON object: \(line)\n\(context)", sourceLocation: sourceLocation)
    }

    /// The category a frame at `timestamp` of a burger-then-sparrow clip must rank first, the
    /// sparrow starting at `switchTime` milliseconds.
    static func expectedTop(at timestamp: Int, switchTime: Int) -> (index: Int, name: String) {
        timestamp < switchTime
            ? (VideoClipMaker.burgerIndex, VideoClipMaker.burgerName)
            : (VideoClipMaker.sparrowIndex, VideoClipMaker.sparrowName)
    }

    /// Expects every frame's top category to be the one shown at its time.
    static func expectTopCategories(_ frames: [Frame], switchTime: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for frame in frames {
            let expected = expectedTop(at: frame.timestampInMilliseconds, switchTime: switchTime)
            #expect(
                frame.top?.index == expected.index && frame.top?.categoryName == expected.name,
                "at \(frame.timestampInMilliseconds) ms: top \(String(describing: frame.top)), expected \(expected)",
                sourceLocation: sourceLocation)
        }
    }

    /// A table line of a classified frame: `"     100 ms  934 cheeseburger 0.93750 | 927 hot pot 0.01172"`
    /// (timestamp right-aligned in 8 columns, then the first head's categories).
    struct TableFrame: Equatable {
        let timestampInMilliseconds: Int
        let topIndex: Int
        let topName: String
        let categoryCount: Int
    }

    /// Parses a table frame line, or nil when the line is not one.
    static func tableFrame(_ line: String) -> TableFrame? {
        guard let match = line.wholeMatch(of: /( *)(\d+) ms  (.+)/), match.1.count + match.2.count == 8,
            let timestamp = Int(match.2)
        else { return nil }
        let categories = match.3.split(separator: " | ", omittingEmptySubsequences: false)
        var top: (Int, String)?
        for (position, category) in categories.enumerated() {
            guard let fields = category.wholeMatch(of: /(\d+) (.+) (\d+\.\d{5})/), let index = Int(fields.1) else { return nil }
            if position == 0 { top = (index, String(fields.2)) }
        }
        guard let top else { return nil }
        return TableFrame(timestampInMilliseconds: timestamp, topIndex: top.0, topName: top.1, categoryCount: categories.count)
    }
}
