import CFFmpeg
import Testing

@testable import VideoInput

/// How source URLs are classified before FFmpeg opens them, as FFmpeg's own protocol lookup does.
@Suite("Input location")
struct InputLocationTests {
    static let cases: [(url: String, expected: InputLocation)] = [
        ("clip.mp4", .path("clip.mp4")),
        ("/tmp/clip.mkv", .path("/tmp/clip.mkv")),
        ("/tmp/a:b.mp4", .path("/tmp/a:b.mp4")),
        ("./take:2.webm", .path("./take:2.webm")),
        ("file:/tmp/clip.mp4", .path("/tmp/clip.mp4")),
        ("pipe:", .fileDescriptor(0)),
        ("pipe:-", .fileDescriptor(0)),
        ("pipe:7", .fileDescriptor(7)),
        ("pipe:seven", .other),
        ("tcp://127.0.0.1:9", .other),
        ("udp://239.0.0.1:1234", .other),
        ("https://example.com/video.mp4", .other),
        ("rtsp://camera.local/stream", .other),
    ]

    @Test("URLs and paths", arguments: cases)
    func classify(url: String, expected: InputLocation) {
        #expect(InputLocation(url: url, format: nil) == expected)
    }

    @Test("demuxers that open their own input take the URL as it is, paths still checked")
    func selfOpeningFormats() throws {
        try FFmpegLibrary.ensureSetUp(for: "lavfi")  // lavfi is a libavdevice input, registered by the library
        let lavfi = try #require(av_find_input_format("lavfi"))
        #expect(InputLocation(url: "testsrc=size=64x48:rate=10", format: lavfi) == .other)
        #expect(InputLocation(url: "/dev/video0", format: lavfi) == .path("/dev/video0"))
        let raw = try #require(av_find_input_format("rawvideo"))
        #expect(InputLocation(url: "pipe:3", format: raw) == .fileDescriptor(3))
    }
}
