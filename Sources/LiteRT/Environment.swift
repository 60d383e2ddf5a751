import CLiteRt
import TasksCommon

/// A LiteRT environment: the runtime context models and buffers are created in.
///
/// Wraps `LiteRtEnvironment` (`LiteRtCreateEnvironment` / `LiteRtDestroyEnvironment`).
/// Logging is set to errors only, so the absent GPU/NPU accelerators are not reported on stderr.
/// Not `Sendable`: callers serialize access (the task types hold it behind a lock).
package final class Environment {
    let handle: LiteRtEnvironment

    /// Creates an environment.
    /// - Throws: `TasksError` (internal) when LiteRT cannot create one.
    package init() throws(TasksError) {
        // Severity 3 = error: hides the INFO/WARNING lines about missing accelerators.
        var quiet = LiteRtEnvOption()
        quiet.tag = kLiteRtEnvOptionTagMinLoggerSeverity
        quiet.value.type = kLiteRtAnyTypeInt
        quiet.value.int_value = 3
        var environment: LiteRtEnvironment?
        try check(LiteRtCreateEnvironment(1, &quiet, &environment), "LiteRtCreateEnvironment")
        guard let environment else { throw .internal("LiteRtCreateEnvironment returned no environment") }
        handle = environment
    }

    deinit { LiteRtDestroyEnvironment(handle) }
}
