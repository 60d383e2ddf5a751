import Foundation
import Testing

@testable import LiteRT

/// What reaches stderr while a model compiles is kept, except LiteRT's `INFO:` lines.
@Suite struct LogFilterTests {
    @Test(arguments: [
        ("INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\n", ""),
        ("INFO: a\nWARNING: b\nINFO: c\nlast", "WARNING: b\nlast"),
        ("ERROR: x\n INFO: indented is not LiteRT's\n", "ERROR: x\n INFO: indented is not LiteRT's\n"),
        ("", ""),
    ])
    func keepsAllButInfoLines(captured: String, kept: String) {
        #expect(String(decoding: LogFilter.keptLines(of: Data(captured.utf8)), as: UTF8.self) == kept)
    }
}
