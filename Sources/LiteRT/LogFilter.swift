import Foundation
import TasksCommon

/// Keeps LiteRT's `INFO:` lines off stderr while a model is compiled (see `LiteRTLog`).
///
/// libLiteRt.so writes them to descriptor 2 and exports no switch for them (its environment's
/// minimum severity does not reach the XNNPACK delegate's logger). So, for the duration of
/// the call, descriptor 2 points at an unlinked temporary file; afterwards it is restored and
/// every line captured is written back to stderr except LiteRT's `INFO:` lines. Nothing another
/// thread writes to stderr meanwhile is lost, only delayed. Compilations that filter take one
/// process-wide lock, since descriptor 2 is process-wide.
enum LogFilter {
    private static let lock = NSLock()

    /// Runs `body` with LiteRT's `INFO:` lines filtered out of stderr, unless `LiteRTLog.isShown`.
    /// When the redirection cannot be set up, `body` runs with stderr as it is.
    static func filtering<Value>(_ body: () throws(TasksError) -> Value) throws(TasksError) -> Value {
        guard !LiteRTLog.isShown else { return try body() }
        lock.lock()
        defer { lock.unlock() }
        guard let capture = Capture() else { return try body() }
        defer { capture.finish() }
        return try body()
    }

    /// Descriptor 2 redirected to a temporary file, and the descriptor it had before.
    private struct Capture {
        let file: UnsafeMutablePointer<FILE>
        let saved: Int32

        /// Points descriptor 2 at a new temporary file; nil when that fails (nothing changed).
        init?() {
            fflush(nil)  // what was written before goes where it was meant to
            guard let file = tmpfile() else { return nil }
            let saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
            guard saved >= 0, dup2(fileno(file), STDERR_FILENO) >= 0 else {
                if saved >= 0 { close(saved) }
                fclose(file)
                return nil
            }
            self.file = file
            self.saved = saved
        }

        /// Restores descriptor 2 and writes back what was captured, less LiteRT's `INFO:` lines.
        func finish() {
            fflush(nil)
            while dup2(saved, STDERR_FILENO) < 0, errno == EINTR {}
            close(saved)
            let kept = LogFilter.keptLines(of: captured())
            fclose(file)
            guard !kept.isEmpty else { return }
            kept.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }

        /// Everything written to the temporary file.
        private func captured() -> Data {
            rewind(file)
            var data = Data()
            var chunk = [UInt8](repeating: 0, count: 4096)
            while case let count = fread(&chunk, 1, chunk.count, file), count > 0 {
                data.append(contentsOf: chunk[..<count])
            }
            return data
        }
    }

    /// `text` without the lines that start with LiteRT's `INFO: `, each kept line with its end.
    static func keptLines(of text: Data) -> Data {
        let info = Data("INFO: ".utf8)
        var kept = Data()
        var lineStart = text.startIndex
        while lineStart < text.endIndex {
            let lineEnd = text[lineStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? text.endIndex
            let line = text[lineStart..<lineEnd]
            if !line.starts(with: info) { kept.append(line) }
            lineStart = lineEnd
        }
        return kept
    }
}
