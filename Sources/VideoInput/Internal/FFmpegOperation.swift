/// The step of reading a video at which an FFmpeg call failed: it starts the error message
/// and decides what an ambiguous code means (invalid data while opening is "not a video";
/// while reading it is damage).
enum FFmpegOperation: Sendable {
    /// `avformat_open_input`: connecting, opening the file or device, probing the format.
    case open
    /// `avformat_find_stream_info`: reading the start of the stream to learn its parameters.
    case findStreamInfo
    /// `av_find_best_stream`: choosing the video stream and its decoder.
    case findVideoStream
    /// `avcodec_parameters_to_context` and `avcodec_open2`: preparing the decoder.
    case openDecoder
    /// `av_read_frame`: demuxing the next packet.
    case read
    /// `avcodec_send_packet` and `avcodec_receive_frame`: decoding.
    case decode
    /// Taking a decoded frame's planes (`av_frame_clone` or `av_image_copy_plane`), or repacking them first
    /// (`sws_getCachedContext`, `sws_setColorspaceDetails`, `sws_scale`).
    case convert

    /// The start of an error's reason: "Failed to ... video source" (the source itself is the
    /// error's subject, shown before it).
    var failure: String {
        switch self {
        case .open: "Failed to open video source"
        case .findStreamInfo: "Failed to read the stream parameters of video source"
        case .findVideoStream: "Failed to find a video stream in video source"
        case .openDecoder: "Failed to open the video decoder of video source"
        case .read: "Failed to read video source"
        case .decode: "Failed to decode video source"
        case .convert: "Failed to convert a frame of video source"
        }
    }

    /// Whether the operation reads the start of the source, where bad data means the
    /// source is not a (supported) video rather than a damaged one.
    var isOpening: Bool {
        switch self {
        case .open, .findStreamInfo, .findVideoStream, .openDecoder: true
        case .read, .decode, .convert: false
        }
    }
}
