/// Which decoded frames classify-video classifies: every Nth, or at most F per second of
/// video time.
struct FrameSampler {
    private let every: Int
    private let interval: Double?
    private var seen = 0
    private var nextTime: Double?

    /// - Parameters:
    ///   - every: classify every Nth frame (1: all); ignored when `fps` is given.
    ///   - fps: classify at most this many frames per second of video time.
    init(every: Int, fps: Float?) {
        self.every = every
        interval = fps.map { 1000 / Double($0) }
    }

    /// Whether to classify the frame shown at `time` milliseconds.
    mutating func take(_ time: Int) -> Bool {
        defer { seen += 1 }
        guard let interval else { return seen % every == 0 }
        if let next = nextTime, Double(time) < next { return false }
        nextTime = max(nextTime ?? 0, Double(time)) + interval
        return true
    }
}
