import TasksCommon

/// `--verbose` for model loading: the tasks keep LiteRT's `INFO:` lines off stderr
/// (`LiteRTLog`); a verbose command lets them through.
enum StandardErrorSilencer {
    /// Runs `body` (which creates a task) with LiteRT's whole log shown when `verbose`.
    static func silencing<Value, Failure: Error>(
        unless verbose: Bool,
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        if verbose { LiteRTLog.isShown = true }
        return try body()
    }
}
