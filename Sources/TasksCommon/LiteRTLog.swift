import Foundation
import Synchronization

/// Whether the inference engine's own log lines reach standard error.
///
/// LiteRT (the engine MediaPipe uses) prints `INFO: Created TensorFlow Lite XNNPACK delegate
/// for CPU.` on stderr each time a model is prepared, so every classifier, labeler and embedder
/// a program creates would print it; MediaPipe iOS apps do not show it. The tasks keep LiteRT's
/// `INFO:` lines off stderr by default; its warnings and errors, and anything else written to
/// stderr meanwhile, still appear. There is no such setting in MediaPipe or ML Kit: it is this
/// package's, for a library on a platform where stderr is the terminal.
///
/// To see LiteRT's whole log, set `LiteRTLog.isShown = true` before creating a task, or set the
/// environment variable `VISION_TASKS_LITERT_LOG=1` (the `vision-tasks` tool's `--verbose`).
public enum LiteRTLog {
    /// The environment variable that, set to `1`, makes `isShown` true from the start.
    public static let environmentVariable = "VISION_TASKS_LITERT_LOG"

    private static let shown = Atomic<Bool>(getenv(environmentVariable).map { String(cString: $0) == "1" } ?? false)

    /// Whether LiteRT's `INFO:` lines are shown; false unless `VISION_TASKS_LITERT_LOG=1`.
    /// Applies to tasks created after it is set. Safe to set from any thread.
    public static var isShown: Bool {
        get { shown.load(ordering: .relaxed) }
        set { shown.store(newValue, ordering: .relaxed) }
    }
}
