import FileSystem
import Foundation
import Synchronization
import TasksCommon

/// Keeps LiteRT's announcement of its XNNPACK delegate off stderr (see `LiteRTLog`).
///
/// libLiteRt.so writes `INFO: Created TensorFlow Lite XNNPACK delegate for CPU.` to descriptor 2
/// once per process, when it prepares its first model, and exports no switch for it (its
/// environment's minimum severity does not reach that logger). So, while the process's first
/// model compiles (milliseconds), descriptor 2 points at an unlinked temporary file; afterwards
/// it is restored and everything captured is written back except that line. Later compilations
/// run untouched, since LiteRT does not print it again. What another thread writes meanwhile is
/// delayed, not dropped; only a process that ends, or a child process started, during those
/// milliseconds writes where no one reads. Compilations that filter take one process-wide lock,
/// since descriptor 2 is process-wide.
enum LogFilter {
    /// LiteRT's line, the only one dropped.
    static let announcement = Data("INFO: Created TensorFlow Lite XNNPACK delegate for CPU.".utf8)

    private static let lock = NSLock()
    /// Set once a compilation succeeded under the filter: LiteRT has announced its delegate.
    private static let announced = Atomic<Bool>(false)

    /// Runs `body` (which compiles a model) with LiteRT's announcement filtered out of stderr,
    /// unless `LiteRTLog.isShown` or it was already made. When the redirection cannot be set
    /// up, `body` runs with stderr as it is.
    static func filtering<Value>(_ body: () throws(TasksError) -> Value) throws(TasksError) -> Value {
        guard !announced.load(ordering: .acquiring) else { return try body() }
        guard !LiteRTLog.isShown else { return try announcing(body) }
        lock.lock()
        defer { lock.unlock() }
        guard !announced.load(ordering: .acquiring), let capture = Capture() else { return try body() }
        defer { capture.finish() }
        return try announcing(body)
    }

    /// Runs a compilation; once one succeeded, LiteRT has made its announcement.
    private static func announcing<Value>(_ body: () throws(TasksError) -> Value) throws(TasksError) -> Value {
        let value = try body()
        announced.store(true, ordering: .releasing)
        return value
    }

    /// Descriptor 2 redirected to a temporary file, and the descriptor it had before.
    private struct Capture {
        let file: UnsafeMutablePointer<FILE>
        let saved: FileDescriptor

        /// Points descriptor 2 at a new temporary file; nil when that fails (nothing changed).
        init?() {
            fflush(nil)  // what was written before goes where it was meant to
            guard let file = tmpfile() else { return nil }
            guard let saved = try? FileDescriptor.duplicate(STDERR_FILENO),
                (try? FileDescriptor.redirect(STDERR_FILENO, to: fileno(file))) != nil
            else {
                fclose(file)
                return nil
            }
            self.file = file
            self.saved = saved
        }

        /// Restores descriptor 2 and writes back what was captured, less LiteRT's announcement.
        func finish() {
            fflush(nil)
            try? saved.replace(STDERR_FILENO)
            let kept = LogFilter.keptLines(of: captured())
            fclose(file)
            guard !kept.isEmpty else { return }
            try? saved.write(kept)
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

    /// `text` without LiteRT's announcement line, each kept line with its end.
    static func keptLines(of text: Data) -> Data {
        var kept = Data()
        var lineStart = text.startIndex
        while lineStart < text.endIndex {
            let newline = text[lineStart...].firstIndex(of: UInt8(ascii: "\n"))
            let lineEnd = newline.map { $0 + 1 } ?? text.endIndex
            if text[lineStart..<(newline ?? text.endIndex)] != announcement { kept.append(text[lineStart..<lineEnd]) }
            lineStart = lineEnd
        }
        return kept
    }
}
