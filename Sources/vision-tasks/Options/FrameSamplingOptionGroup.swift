import ImageTasks
import VideoTasks

/// Which frames classify-video classifies: every Nth, or at most F per second of video time.
struct FrameSamplingOptionGroup: ParsableArguments {
    static let every = Option<Int>(
        name: "every", valueName: "N", help: "Classify every Nth decoded frame (1: all).",
        default: 1, defaultDescription: "1",
        transform: ValueParser.integer("every", in: ValueRanges.frameInterval))
    static let fps = Option<Float?>(
        name: "fps", valueName: "F", help: "Classify at most F frames per second of video time.", default: nil,
        transform: ValueParser.number("fps") { fps throws(UsageError) in
            guard fps > 0 else { throw UsageError("--fps must be positive, got \(fps)") }
        })

    static let optionTable = [every.definition, fps.definition]

    let every: Int
    let fps: Float?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !(parsed.contains(Self.every.definition) && parsed.contains(Self.fps.definition)) else {
            throw UsageError("give --every or --fps, not both")
        }
        every = try parsed.value(Self.every)
        fps = try parsed.value(Self.fps)
    }

    /// The runner's sampling policy: at most F per second when `--fps` is given, else every Nth.
    var sampling: FrameSampling { fps.map { .perSecond(Double($0)) } ?? .every(every) }
}
