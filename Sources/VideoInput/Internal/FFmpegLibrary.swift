import CFFmpeg
import TasksCommon

/// Process-wide FFmpeg set-up, done once before the first `VideoSource` opens.
enum FFmpegLibrary {
    /// Loads the libraries (`svt_ffmpeg_load`: the program does not link them, so that starting
    /// it costs nothing when no video is read), registers the input devices
    /// (`avdevice_register_all`: video4linux2, lavfi, ...), initializes networking
    /// (`avformat_network_init`, for TLS URLs), and installs the silent log callback
    /// (`svt_log_install`: level `AV_LOG_ERROR`, nothing printed, the last message kept for error
    /// texts). The log callback is global to the process. Nil when ready, else why not.
    private static let failure: String? = {
        var reason = [CChar](repeating: 0, count: 512)
        guard svt_ffmpeg_load(&reason, reason.count) == 1 else {
            return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        avdevice_register_all()
        avformat_network_init()
        svt_log_install()
        return nil
    }()

    /// Performs the set-up on the first call; later calls return at once. Thread-safe.
    /// - Parameter source: the video source about to be opened, the subject of the error.
    /// - Throws: `TasksError` `unavailableError` when the FFmpeg libraries cannot be loaded,
    ///   with the dynamic loader's reason and the Debian packages that provide them.
    static func ensureSetUp(for source: String) throws(TasksError) {
        guard let failure else { return }
        throw TasksError(
            .unavailableError,
            "FFmpeg could not be loaded (\(failure)): video needs the Debian packages libavformat59, "
                + "libavcodec59, libavdevice59 and libswscale6 (scripts/bootstrap installs them).",
            subject: .videoSource(source))
    }
}
