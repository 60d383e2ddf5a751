/// The ranges options accept, defined once for every command that has the option.
enum ValueRanges {
    /// `--threads`: CPU threads for inference.
    static let threads = 1...64
    /// `--decoder-threads`: FFmpeg's decoder threads for video.
    static let decoderThreads = 1...64
    /// `--timeout`: milliseconds a video source may stall (FFmpeg takes microseconds in 64 bits,
    /// the deadline milliseconds in 32).
    static let timeoutMilliseconds = 1...Int(Int32.max)
    /// `benchmark --runs`: timed repetitions of each step.
    static let runs = 1...100_000
    /// `benchmark --cycles`: create/destroy cycles for the memory check.
    static let cycles = 0...100_000
    /// `classify-video --every`: classify every Nth frame.
    static let frameInterval = 1...Int.max
    /// `label --max-results`: labels per image (ML Kit's `maxResultCount`).
    static let labelCount = 1...Int.max
    /// `label --confidence`: ML Kit's confidence threshold.
    static let confidence: ClosedRange<Float> = 0...1
}
