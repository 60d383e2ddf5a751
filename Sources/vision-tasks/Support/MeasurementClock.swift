import Glibc

/// What `benchmark` times with: elapsed (wall-clock) time, or the CPU time the process used.
///
/// CPU time counts the work of every thread of the process and none of the time spent waiting
/// for a core, so on a machine shared with other work it shows what the code costs where
/// wall-clock figures show mostly the queue. The corresponding C function is `clock_gettime`
/// (`CLOCK_MONOTONIC`, `CLOCK_PROCESS_CPUTIME_ID`).
enum MeasurementClock: String, Codable, CaseIterable {
    case wall
    case cpu

    /// `--clock wall|cpu`.
    static let option = Option<MeasurementClock>(
        name: "clock", valueName: "wall|cpu",
        help: "Time each step in elapsed time (wall) or in the CPU time of the process, all its threads (cpu: "
            + "figures a busy machine does not stretch).",
        default: .wall, defaultDescription: "wall"
    ) { text throws(UsageError) in
        guard let clock = MeasurementClock(rawValue: text) else {
            throw UsageError("--clock must be wall or cpu, got '\(text)'")
        }
        return clock
    }

    /// The clock's current reading.
    func now() -> Duration {
        var time = timespec()
        clock_gettime(self == .wall ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
