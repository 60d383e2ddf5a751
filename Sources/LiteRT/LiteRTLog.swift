import Foundation
import Synchronization

/// Whether the inference engine's announcement reaches standard error.
///
/// LiteRT (the engine MediaPipe uses) prints `INFO: Created TensorFlow Lite XNNPACK delegate
/// for CPU.` on stderr when a process prepares its first model, so any program that creates a
/// classifier, labeler or embedder would print it; MediaPipe iOS apps do not show it. The tasks
/// keep that one line off stderr by default: while the process's first model is prepared (a few
/// milliseconds) stderr goes to a temporary file, which is then written back without the line.
/// What other threads write meanwhile is delayed, not dropped, unless the process ends or starts
/// a child process in those milliseconds. There is no such setting in MediaPipe or ML Kit: it
/// is this package's, for a library on a platform where stderr is the terminal.
///
/// To see LiteRT's log as it is, with no redirection, set `LiteRTLog.isShown = true` before
/// creating the first task, or the environment variable `VISION_TASKS_LITERT_LOG=1` (the
/// `vision-tasks` tool's `--verbose`).
public enum LiteRTLog {
    /// The environment variable that, set to `1`, makes `isShown` true from the start.
    public static let environmentVariable = "VISION_TASKS_LITERT_LOG"

    private static let shown = Atomic<Bool>(getenv(environmentVariable).map { String(cString: $0) == "1" } ?? false)

    /// Whether LiteRT's announcement is shown; false unless `VISION_TASKS_LITERT_LOG=1`.
    /// Applies to tasks created after it is set (LiteRT announces itself once, at the first).
    /// Safe to set from any thread.
    public static var isShown: Bool {
        get { shown.load(ordering: .relaxed) }
        set { shown.store(newValue, ordering: .relaxed) }
    }
}
