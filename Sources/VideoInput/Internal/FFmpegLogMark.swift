import CFFmpeg

/// A point in FFmpeg's log, taken before a call, to fetch what the call logged.
///
/// The log is process-wide: when several sources fail at once on different threads, the
/// message may come from another source's call (it only ever adds detail to an error text).
struct FFmpegLogMark {
    /// The log callback's message counter when the mark was taken.
    private let sequence: UInt

    /// Marks the current end of the log (`svt_log_sequence`).
    init() {
        sequence = svt_log_sequence()
    }

    /// The last message FFmpeg logged at `AV_LOG_ERROR` or worse since the mark, or nil
    /// (`svt_log_last_message`).
    var messageSinceMark: String? {
        guard svt_log_sequence() != sequence else { return nil }
        var buffer = [CChar](repeating: 0, count: 1024)
        svt_log_last_message(&buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return message.isEmpty ? nil : message
    }
}
