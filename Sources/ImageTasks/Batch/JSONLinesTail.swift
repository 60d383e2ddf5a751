import FileSystem
import Glibc
import TasksCommon

/// The end of a JSON Lines file that an interrupted run may have cut in the middle of a record:
/// the bytes after its last newline. Appending to such a file would join the next record to
/// the fragment, so that neither line parses.
package enum JSONLinesTail {
    /// The number of bytes after the file's last newline: 0 when it ends with one, is empty or
    /// does not exist.
    /// - Throws: `TasksError` naming the file when it exists but cannot be read.
    package static func partialLineLength(of path: String) throws(TasksError) -> Int {
        let path = FileSystemPath(path)
        return try path.failing(as: kind) { () throws(Errno) in
            let file: FileDescriptor
            do throws(Errno) {
                file = try FileDescriptor.open(path, O_RDONLY)
            } catch {
                if error == .noSuchFile { return 0 }
                throw error
            }
            return try partialLineLength(file, size: file.status().size)
        }
    }

    /// Cuts the bytes after the last newline of `file` (open for reading and writing), so that
    /// what is appended next starts on a line of its own.
    /// - Returns: the number of bytes removed.
    /// - Throws: `TasksError` naming the file when it cannot be read or truncated.
    package static func removePartialLine(_ file: FileDescriptor, path: String) throws(TasksError) -> Int {
        try FileSystemPath(path).failing(as: kind) { () throws(Errno) in
            let size = try file.status().size
            let partial = try partialLineLength(file, size: size)
            guard partial > 0 else { return 0 }
            try file.truncate(to: size - partial)
            return partial
        }
    }

    private static let kind = FileKind.output

    /// Reads backwards from the end of the `size`-byte file, a block at a time, to the last newline.
    private static func partialLineLength(_ file: FileDescriptor, size: Int) throws(Errno) -> Int {
        var end = size
        var block = [UInt8](repeating: 0, count: 64 << 10)
        while end > 0 {
            let start = max(0, end - block.count)
            guard try file.read(into: &block, count: end - start, at: start) == end - start else { throw Errno(EIO) }
            if let newline = block[..<(end - start)].lastIndex(of: UInt8(ascii: "\n")) {
                return size - (start + newline + 1)
            }
            end = start
        }
        return size
    }
}
