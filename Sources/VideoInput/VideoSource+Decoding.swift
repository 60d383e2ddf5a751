import CFFmpeg
import Glibc
import Imaging
import TasksCommon

extension VideoSource {
    /// Reads and decodes until the next frame and takes its pixels (`av_read_frame`,
    /// `avcodec_send_packet`, `avcodec_receive_frame`, then `av_frame_clone` to read them in
    /// place, or `av_image_copy_plane`).
    ///
    /// Each read waits at most `VideoSourceOptions.timeoutInMilliseconds`. Packets the decoder
    /// rejects are skipped. A read error before the end (a truncated or corrupt file, a
    /// dropped connection) first lets the decoder return the frames it holds, then is thrown.
    ///
    /// The frame's `image` keeps the decoder's layout when Imaging reads it: `yuv420p` and
    /// `yuvj420p` (H.264, HEVC, VP8/9, AV1, MPEG-4, MJPEG) arrive as `.i420`, `yuv444p` and
    /// `yuvj444p` as `.i444`, `nv12` and `nv21` as themselves, `yuyv422` (cameras) as `.yuyv`,
    /// `rgb24`, `rgba`/`rgb0`, `bgra`/`bgr0` and `gray` as `.rgb8`, `.rgba8`, `.bgra8` and
    /// `.gray8`. Other YUV formats are repacked by libswscale (`sws_scale`) without changing
    /// their values' meaning: 4:2:2 such as MJPEG's `yuvj422p` to `.yuyv`, other 4:4:4 (10-bit)
    /// to `.i444`, the rest (10-bit 4:2:0, `p010`, 4:1:1, 4:4:0) to `.i420`. RGB, palette and
    /// other gray formats are repacked to `.rgb8`. A YUV frame carries the range the stream
    /// states (`AVFrame.color_range`; unstated: full for the `yuvj` formats, else video range)
    /// and the matrix of its colour space (`AVFrame.colorspace`): BT.709 → `.bt709`; BT.470 BG,
    /// SMPTE 170M and unspecified → `.bt601`; BT.2020 (either form) → `.bt2020`; SMPTE 240M →
    /// `.smpte240m`; FCC → `.fcc`; YCgCo, ICtCp and the other rare spaces → `.bt601`
    /// (libswscale's fallback). Gray frames are taken as full range, as libswscale takes them.
    ///
    /// - Returns: The next frame in presentation order, with its timestamp in milliseconds
    ///   (see `VideoFrame.timestampInMilliseconds`), or nil at the end of the stream (and on
    ///   every later call).
    /// - Throws: `TasksError` with the source as its subject (`.videoSource(url)`), the
    ///   message reading "<url>: <reason>":
    ///   - `deadlineExceededError`: no data arrived within the timeout (a stalled pipe,
    ///     server or camera);
    ///   - `cancelledError`: `VideoSource.cancelAllBlockingReads()` was called;
    ///   - `dataLossError`: the input broke off or is corrupt after the frames already
    ///     returned, or the stream ended without a single frame decoding (the message counts
    ///     the damaged packets and gives the last decoder error);
    ///   - `invalidArgumentError`: a frame's size or pixel format cannot be handled (a frame
    ///     over `MPImage.maximumPixelCount` pixels, a format libswscale cannot repack);
    ///   - `unavailableError`, `resourceExhaustedError`, `internalError`, `unknownError`
    ///     for the rest.
    ///   After an error the source is spent: every later call throws the same error.
    public func nextFrame() throws(TasksError) -> VideoFrame? {
        switch state {
        case .finished: return nil
        case .failed(let error): throw error
        case .reading, .draining: break
        }
        do throws(TasksError) {
            var consecutiveErrors = 0
            while true {
                switch try receiveFrame() {
                case .frame(let decoded):
                    return decoded
                case .rejected:
                    consecutiveErrors += 1
                    guard consecutiveErrors < Self.maximumConsecutiveDecoderErrors else {
                        throw TasksError(
                            .dataLossError,
                            "\(FFmpegOperation.decode.failure): the decoder reported \(consecutiveErrors) errors in a row (\(statistics.lastDamage ?? "")).",
                            subject: .videoSource(url))
                    }
                    if case .reading = state { try sendNextPacket() }
                case .needsInput:
                    consecutiveErrors = 0
                    guard case .reading = state else { return try finish() }
                    try sendNextPacket()
                case .drained:
                    return try finish()
                }
            }
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// The decoder errors in a row after which a stream is given up.
    private static var maximumConsecutiveDecoderErrors: Int { 1000 }

    /// What one `avcodec_receive_frame` gave.
    private enum Received {
        /// A frame, with its pixels taken.
        case frame(VideoFrame)
        /// The decoder needs another packet (`EAGAIN`).
        case needsInput
        /// The decoder is drained (`AVERROR_EOF`).
        case drained
        /// The decoder reported a damaged frame, which is skipped.
        case rejected
    }

    /// Takes one frame from the decoder (`avcodec_receive_frame`) with its pixels, and dates it.
    private func receiveFrame() throws(TasksError) -> Received {
        let log = FFmpegLogMark()
        let status = avcodec_receive_frame(decoder.pointer, frame.pointer)
        switch status {
        case 0:
            break
        case SVT_AVERROR_EAGAIN:
            return .needsInput
        case SVT_AVERROR_EOF:
            return .drained
        case svt_averror(ENOMEM):
            throw FFmpegError.error(status, .decode, source: url, deadline: deadline, log: log)
        default:
            recordDamage(status, log: log)
            return .rejected
        }
        defer { av_frame_unref(frame.pointer) }
        let pixels = try converter.pixels(of: frame.pointer, source: url)
        let orientation = DisplayMatrix.orientation(of: frame.pointer) ?? streamOrientation ?? .up
        statistics.frames += 1
        return .frame(VideoFrame(pixels: pixels, timestampInMilliseconds: timestamp(of: frame.pointer), orientation: orientation))
    }

    /// The frame's time in milliseconds from `origin`: its best-effort presentation timestamp
    /// rescaled from the stream's time base (`av_rescale_q`, rounding to nearest), or the last
    /// timestamp + 1 ms when it has none (0 for a first frame).
    private func timestamp(of frame: UnsafePointer<AVFrame>) -> Int {
        var milliseconds = lastTimestamp.map { $0 == .max ? .max : $0 + 1 } ?? 0
        let presentation = frame.pointee.best_effort_timestamp
        if presentation != SVT_NOPTS_VALUE, let timeBase {
            let origin = self.origin ?? presentation
            self.origin = origin
            let (elapsed, overflow) = presentation.subtractingReportingOverflow(origin)
            // av_rescale_q answers INT64_MIN when the result does not fit: treated as no timestamp.
            let rescaled = overflow ? Int64.min : av_rescale_q(elapsed, timeBase, AVRational(num: 1, den: 1000))
            if rescaled != Int64.min {
                milliseconds = Int(rescaled)
            }
        }
        lastTimestamp = milliseconds
        return milliseconds
    }

    /// Reads the next packet of the video stream (`av_read_frame`, retried on `EAGAIN` from
    /// non-blocking devices within the budget) and sends it to the decoder
    /// (`avcodec_send_packet`); at the end of the input, or on a read error, starts draining.
    private func sendNextPacket() throws(TasksError) {
        if !packetPending {
            let log = FFmpegLogMark()
            deadline.reset()
            var status = av_read_frame(format.pointer, packet.pointer)
            while status == SVT_AVERROR_EAGAIN, !deadline.checkExpired() {
                usleep(5_000)  // a device without a frame ready: poll, as FFmpeg's tools do
                status = av_read_frame(format.pointer, packet.pointer)
            }
            if status == SVT_AVERROR_EOF {
                startDraining()
                return
            }
            if status < 0 {
                let error = FFmpegError.error(status, .read, source: url, deadline: deadline, log: log)
                if error.code == .deadlineExceededError || error.code == .cancelledError || error.code == .resourceExhaustedError
                {
                    throw error
                }
                pendingError = error
                startDraining()
                return
            }
            guard packet.pointer.pointee.stream_index == streamIndex else {
                av_packet_unref(packet.pointer)
                return
            }
            statistics.packets += 1
        }
        let log = FFmpegLogMark()
        let status = avcodec_send_packet(decoder.pointer, packet.pointer)
        if status == SVT_AVERROR_EAGAIN {
            packetPending = true  // take frames out first, then send it again
            return
        }
        packetPending = false
        av_packet_unref(packet.pointer)
        if status == svt_averror(ENOMEM) {
            throw FFmpegError.error(status, .decode, source: url, deadline: deadline, log: log)
        }
        if status < 0 {
            recordDamage(status, log: log)
        }
    }

    /// Tells the decoder that no more packets come (`avcodec_send_packet` with NULL), so that
    /// it returns the frames it holds.
    private func startDraining() {
        state = .draining
        if packetPending {
            packetPending = false
            av_packet_unref(packet.pointer)
        }
        // AVERROR_EOF (already draining) and other failures leave nothing to drain: the
        // next receive then reports EOF or EAGAIN, both of which end the stream.
        _ = avcodec_send_packet(decoder.pointer, nil)
    }

    /// Counts a packet or frame the decoder rejected and keeps its reason.
    private func recordDamage(_ status: Int32, log: FFmpegLogMark) {
        statistics.damaged += 1
        statistics.lastDamage = FFmpegError.description(of: status) + (log.messageSinceMark.map { "; FFmpeg: \($0)" } ?? "")
    }

    /// Ends the stream once the decoder is drained: throws the read error met on the way, or
    /// a `dataLossError` when no frame decoded at all (whether damaged packets came or the
    /// container ended before its first frame, as a WebM cut inside its first key frame does);
    /// else returns nil.
    private func finish() throws(TasksError) -> VideoFrame? {
        if let pendingError {
            throw pendingError
        }
        if statistics.frames == 0 {
            throw TasksError(
                .dataLossError,
                "\(FFmpegOperation.decode.failure): no frame could be decoded from \(statistics.packets) packets, \(statistics.damaged) rejected as damaged\(statistics.lastDamage.map { " (last error: \($0))" } ?? "").",
                subject: .videoSource(url))
        }
        state = .finished
        return nil
    }
}
