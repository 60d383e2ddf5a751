/// What a `VideoSource` has met so far, to tell a stream that is merely over from one of
/// which nothing could be decoded, and to explain the latter.
struct DecodingStatistics {
    /// Packets of the video stream read from the input.
    var packets = 0
    /// Frames decoded and returned.
    var frames = 0
    /// Packets or frames the decoder rejected (skipped).
    var damaged = 0
    /// The last decoder error, as "<av_strerror text>[; FFmpeg: <log line>]".
    var lastDamage: String?
}
