import ImageTasks
import VideoTasks

// The video commands' own JSON lines (classify-video and live); an image's record is the task
// layer's `ImageOutcomeRecord`. Keys are printed in sorted order (`JSONText`).

/// One classified video or live frame, `{"timestampInMilliseconds", "classifications"}`, or
/// the error for that frame, `{"timestampInMilliseconds", "error"}`.
struct FrameRecord: Codable, Equatable {
    let timestampInMilliseconds: Int
    var classifications: [HeadRecord]?
    var error: ErrorRecord?
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
