import CFFmpeg

/// Process-wide FFmpeg set-up, done once before the first `VideoSource` opens.
enum FFmpegLibrary {
    /// Registers the input devices (`avdevice_register_all`: video4linux2, lavfi, ...),
    /// initializes networking (`avformat_network_init`, for TLS URLs), and installs the
    /// silent log callback (`svt_log_install`: level `AV_LOG_ERROR`, nothing printed, the
    /// last message kept for error texts). The log callback is global to the process.
    private static let setUp: Void = {
        avdevice_register_all()
        avformat_network_init()
        svt_log_install()
    }()

    /// Performs the set-up on the first call; later calls return at once. Thread-safe.
    static func ensureSetUp() {
        setUp
    }
}
