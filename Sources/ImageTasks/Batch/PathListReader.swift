import FileSystem
import Glibc
import TasksCommon

/// Reads the paths of `--files-from`, each as soon as it is complete: newline-terminated (or
/// NUL-terminated) entries, from a file, a FIFO or standard input, with `read` as data arrives.
///
/// Entries are bytes (names need not be UTF-8); empty entries are skipped; a last entry without
/// its terminator counts at the end of the input.
package final class PathListReader {
    private let file: FileDescriptor
    private let separator: UInt8
    /// What the list is called in messages.
    package let name: String
    /// Bytes read and not yet returned start at `start`; `scanned` bytes from there hold no separator.
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var ended = false
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Opens `path` ("-": standard input).
    /// - Parameter nullSeparated: entries end with NUL bytes instead of newlines.
    /// - Throws: `TasksError` naming the file when it cannot be opened.
    package init(path: String, nullSeparated: Bool) throws(TasksError) {
        separator = nullSeparated ? 0 : UInt8(ascii: "\n")
        let list = FileKind(noun: "list of paths", maximumByteCount: .max)
        name = path == "-" ? "standard input" : path
        // Standard input as a private duplicate, so that closing this leaves descriptor 0 open.
        file = try FileSystemPath(name).failing(as: list) { () throws(Errno) in
            path == "-" ? try FileDescriptor.duplicate(STDIN_FILENO) : try FileDescriptor.open(FileSystemPath(path), O_RDONLY)
        }
    }

    /// The next entry, waiting for it to arrive; nil at the end of the input.
    /// The corresponding C function is `read`.
    /// - Throws: `TasksError` when reading fails.
    package func next() throws(TasksError) -> FileSystemPath? {
        while true {
            if let end = buffer[(start + scanned)...].firstIndex(of: separator) {
                let entry = Array(buffer[start..<end])
                start = end + 1
                scanned = 0
                if entry.isEmpty { continue }
                return FileSystemPath(bytes: entry)
            }
            scanned = buffer.count - start
            if ended {
                guard scanned > 0 else { return nil }
                defer { (start, scanned) = (buffer.count, 0) }
                return FileSystemPath(bytes: Array(buffer[start...]))
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let count: Int
            do throws(Errno) {
                count = try file.read(into: &chunk)
            } catch {
                throw TasksError(.unknownError, "Reading the list of paths failed: \(error).", subject: .file(name))
            }
            if count == 0 { ended = true } else { buffer += chunk[..<count] }
        }
    }
}
