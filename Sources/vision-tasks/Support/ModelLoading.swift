import ImageTasks
import LiteRT
import TasksCommon

/// Creates a classifier or labeler the way every command does: with LiteRT's log shown when
/// `--verbose` (the tasks keep it off stderr otherwise: `LiteRTLog`), reporting a failure on stderr.
enum ModelLoading {
    /// The value `make` creates, or nil after reporting its error.
    static func load<Value>(verbose: Bool, _ make: () throws -> Value) -> Value? {
        do {
            if verbose { LiteRTLog.isShown = true }
            return try make()
        } catch {
            StandardStreams.reportError(TasksError.wrapping(error))
            return nil
        }
    }
}
