import Foundation
import Testing

@testable import LiteRT

/// What reaches stderr while the first model compiles is kept, except LiteRT's announcement.
@Suite struct LogFilterTests {
    @Test(arguments: [
        ("INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\n", ""),
        (
            "INFO: a program's own line\nINFO: Created TensorFlow Lite XNNPACK delegate for CPU.\nWARNING: b\nlast",
            "INFO: a program's own line\nWARNING: b\nlast"
        ),
        (
            "ERROR: x\nINFO: Created TensorFlow Lite XNNPACK delegate for CPU. and more\n",
            "ERROR: x\nINFO: Created TensorFlow Lite XNNPACK delegate for CPU. and more\n"
        ),
        ("", ""),
    ])
    func keepsAllButTheAnnouncement(captured: String, kept: String) {
        #expect(String(decoding: LogFilter.keptLines(of: Data(captured.utf8)), as: UTF8.self) == kept)
    }
}
