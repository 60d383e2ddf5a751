import TasksCommon

/// `--report FILE.html` of classify, label and classify-video.
enum ReportOption {
    static let report = Option<String?>(
        name: "report", valueName: "FILE.html",
        help: "Also write a self-contained HTML report to FILE.html as the run goes: thumbnails, the top categories as "
            + "bars, errors, and a summary at the end (for a video, a timeline of the top category).")
}

extension ReportOption {
    /// The report `make` creates, or nil after reporting why it could not be created on stderr.
    static func open<Report>(_ make: () throws(TasksError) -> Report) -> Report? {
        do {
            return try make()
        } catch {
            StandardStreams.reportError(error)
            return nil
        }
    }
}
