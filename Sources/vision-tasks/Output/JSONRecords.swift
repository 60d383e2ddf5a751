import ImageLabeling
import TasksCommon
import VisionTasks

// The shapes of every JSON value the tool prints, as Codable structs: what is printed is what
// these say (README "Command line"), and a reader can decode it with the same types. Keys are
// printed in sorted order (`JSONText`).

/// One image's outcome: `{"image", "classifications"}` (classify), `{"image", "labels"}`
/// (label) or `{"image", "error"}`; absent members are left out.
struct ImageOutcomeRecord: Codable, Equatable {
    /// The path as given or found (`FileSystemPath.description`: bytes that are not UTF-8 as `\xNN`).
    let image: String
    var classifications: [HeadRecord]?
    var labels: [LabelRecord]?
    var error: ErrorRecord?
}

/// One classified video or live frame, `{"timestampInMilliseconds", "classifications"}`, or
/// the error for that frame, `{"timestampInMilliseconds", "error"}`.
struct FrameRecord: Codable, Equatable {
    let timestampInMilliseconds: Int
    var classifications: [HeadRecord]?
    var error: ErrorRecord?
}

/// An error: `code` is MediaPipe's status name ("INVALID_ARGUMENT"), `message` names the subject.
struct ErrorRecord: Codable, Equatable {
    let code: String
    let message: String

    init(_ error: TasksError) {
        code = error.code.statusName
        message = ErrorText.message(error)
    }
}

/// MediaPipe's `Classifications`: headIndex, headName (null when absent), categories.
struct HeadRecord: Codable, Equatable {
    let headIndex: Int
    let headName: String?
    let categories: [CategoryRecord]

    init(_ head: Classifications) {
        headIndex = head.headIndex
        headName = head.headName
        categories = head.categories.map(CategoryRecord.init)
    }

    /// Writes absent names as null (the synthesized encoding would leave them out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(headIndex, forKey: .headIndex)
        try container.encode(headName, forKey: .headName)
        try container.encode(categories, forKey: .categories)
    }
}

/// MediaPipe's `ResultCategory`: index, score, categoryName and displayName (null when absent).
struct CategoryRecord: Codable, Equatable {
    let index: Int
    let score: Float
    let categoryName: String?
    let displayName: String?

    init(_ category: ResultCategory) {
        index = category.index
        score = category.score
        categoryName = category.categoryName
        displayName = category.displayName
    }

    /// Writes absent names as null (the synthesized encoding would leave them out).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(score, forKey: .score)
        try container.encode(categoryName, forKey: .categoryName)
        try container.encode(displayName, forKey: .displayName)
    }
}

/// ML Kit's `ImageLabel`: text, confidence, index.
struct LabelRecord: Codable, Equatable {
    let text: String
    let confidence: Float
    let index: Int

    init(_ label: ImageLabel) {
        (text, confidence, index) = (label.text, label.confidence, label.index)
    }
}

/// classify-video's last line: `{"summary": [span]}`.
struct SummaryRecord: Codable, Equatable {
    let summary: [CategorySpans.Span]
}

/// live's last line: `{"statistics": {...}}`.
struct StatisticsRecord: Codable, Equatable {
    /// The live-stream counters; `lastLatencyInMilliseconds` is left out when no frame was processed.
    struct Counters: Codable, Equatable {
        let framesReceived, framesProcessed, framesDropped: Int
        let lastLatencyInMilliseconds: Double?
    }

    let statistics: Counters
}
