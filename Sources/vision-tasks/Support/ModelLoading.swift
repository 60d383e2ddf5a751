import ImageTasks
import TasksCommon

/// Creates a classifier or labeler the way every command does: quietly unless `--verbose`
/// (`StandardErrorSilencer`), reporting a failure on stderr.
enum ModelLoading {
    /// The value `make` creates, or nil after reporting its error.
    static func load<Value>(verbose: Bool, _ make: () throws -> Value) -> Value? {
        do {
            return try StandardErrorSilencer.silencing(unless: verbose, make)
        } catch {
            StandardStreams.reportError(TasksError.wrapping(error))
            return nil
        }
    }
}
