import CFFmpeg
import TasksCommon

/// An opened input: an `AVFormatContext` from `avformat_open_input`, closed with
/// `avformat_close_input` in `deinit`.
///
/// Keeps strong references to the deadline its interrupt callback points to and to the
/// custom input it reads from, so that both outlive it. Not thread-safe.
final class FormatContext {
    /// The context; +1, owned by this object.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// The budget of each blocking call, polled through the interrupt callback.
    let deadline: InterruptDeadline
    /// The custom I/O in `pointer.pb`, when FFmpeg does not open the source itself.
    private let input: FileDescriptorInput?

    /// Opens a source and reads its header (`avformat_alloc_context`, `avformat_open_input`),
    /// within one budget of `deadline`.
    ///
    /// - Parameters:
    ///   - url: What FFmpeg opens (a path, URL, device or filter graph); the subject of errors.
    ///   - format: The demuxer to use, or nil to probe.
    ///   - options: Demuxer and protocol options (`AVDictionary`); every one must be used.
    ///   - input: Custom I/O to read from instead of opening `url`, or nil.
    ///   - nonBlocking: Sets `AVFMT_FLAG_NONBLOCK`, so that a device without a frame ready
    ///     answers `EAGAIN` instead of blocking (the caller retries within its budget).
    ///   - deadline: The budget, reset here.
    /// - Throws: `TasksError` as mapped by `FFmpegError` (`notFoundError`,
    ///   `invalidArgumentError`, `deadlineExceededError`, `unavailableError`, ...), and
    ///   `invalidArgumentError` naming the options that neither the demuxer nor the protocol
    ///   knows. Everything allocated is freed before the error is thrown.
    init(
        url: String, format: UnsafePointer<AVInputFormat>?, options: [String: String],
        input: FileDescriptorInput?, nonBlocking: Bool, deadline: InterruptDeadline
    ) throws(TasksError) {
        guard let allocated = avformat_alloc_context() else {
            throw TasksError(
                .resourceExhaustedError,
                "Failed to open video source: cannot allocate a format context (avformat_alloc_context).",
                subject: .videoSource(url))
        }
        svt_install_interrupt(allocated, deadline.pointer)
        if let input {
            allocated.pointee.pb = input.context  // borrowed: `input` outlives the context
        }
        if nonBlocking {
            allocated.pointee.flags |= AVFMT_FLAG_NONBLOCK
        }
        var dictionary: OpaquePointer?  // +1 once set, freed below
        defer { av_dict_free(&dictionary) }
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            av_dict_set(&dictionary, key, value, 0)
        }

        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        let log = FFmpegLogMark()
        deadline.reset()
        // On failure avformat_open_input frees the context and sets it to NULL.
        let status = avformat_open_input(&context, url, format, &dictionary)
        guard status >= 0, let opened = context else {
            throw FFmpegError.error(status, .open, source: url, deadline: deadline, log: log)
        }
        // Some reads (an ID3 tag probe, say) may time out without failing the call; the
        // input is then dead, so the call as a whole has timed out.
        guard !deadline.hasExpired else {
            avformat_close_input(&context)
            throw FFmpegError.error(SVT_AVERROR_EXIT, .open, source: url, deadline: deadline, log: log)
        }
        let unused = Self.keys(of: dictionary)
        guard unused.isEmpty else {
            avformat_close_input(&context)
            let formatName = format.map { String(cString: $0.pointee.name) } ?? "the probed format"
            throw TasksError.invalidArgument(
                "Failed to open video source: unknown demuxer option\(unused.count == 1 ? "" : "s") \(unused.map { "'\($0)'" }.joined(separator: ", ")) (not an option of \(formatName) or its protocol).",
                subject: .videoSource(url))
        }
        pointer = opened
        self.deadline = deadline
        self.input = input
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
        // `input` (custom I/O) is released after this, as avformat_close_input does not free it.
    }

    /// Reads the start of the streams to fill in their parameters (`avformat_find_stream_info`),
    /// within one budget of the deadline.
    ///
    /// - Parameter source: The URL or path, the subject of errors.
    /// - Throws: `TasksError` as mapped by `FFmpegError` for `.findStreamInfo`.
    func findStreamInfo(source: String) throws(TasksError) {
        let log = FFmpegLogMark()
        deadline.reset()
        let status = avformat_find_stream_info(pointer, nil)
        // Probing stops quietly when a read times out; the input is then dead: report it.
        guard status >= 0, !deadline.hasExpired else {
            throw FFmpegError.error(
                status < 0 ? status : SVT_AVERROR_EXIT, .findStreamInfo, source: source, deadline: deadline, log: log)
        }
    }

    /// The keys left in a dictionary (`av_dict_get` with `AV_DICT_IGNORE_SUFFIX`).
    private static func keys(of dictionary: OpaquePointer?) -> [String] {
        var keys: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            keys.append(String(cString: next.pointee.key))
            entry = next
        }
        return keys
    }
}
