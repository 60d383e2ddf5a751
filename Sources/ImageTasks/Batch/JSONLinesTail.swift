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
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return 0 }
            throw FileReader.error(errno: errno, path: FileSystemPath(path), kind: kind)
        }
        defer { close(descriptor) }
        return try partialLineLength(descriptor, path: path)
    }

    /// Cuts the bytes after the last newline of the file open for reading and writing as
    /// `descriptor`, so that what is appended next starts on a line of its own.
    /// - Returns: the number of bytes removed.
    /// - Throws: `TasksError` naming the file when it cannot be read or truncated.
    package static func removePartialLine(_ descriptor: Int32, path: String) throws(TasksError) -> Int {
        let partial = try partialLineLength(descriptor, path: path)
        guard partial > 0 else { return 0 }
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0, ftruncate(descriptor, size - off_t(partial)) == 0 else {
            throw FileReader.error(errno: errno, path: FileSystemPath(path), kind: kind)
        }
        return partial
    }

    private static let kind = FileKind.output

    /// Reads backwards from the end, a block at a time, to the last newline.
    private static func partialLineLength(_ descriptor: Int32, path: String) throws(TasksError) -> Int {
        var end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else { throw FileReader.error(errno: errno, path: FileSystemPath(path), kind: kind) }
        let size = end
        var block = [UInt8](repeating: 0, count: 64 << 10)
        while end > 0 {
            let start = max(0, end - off_t(block.count))
            let count = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Int(end - start), start) }
            if count < 0, errno == EINTR { continue }
            guard count == Int(end - start) else {
                throw FileReader.error(errno: count < 0 ? errno : EIO, path: FileSystemPath(path), kind: kind)
            }
            if let newline = block[..<count].lastIndex(of: UInt8(ascii: "\n")) {
                return Int(size - (start + off_t(newline) + 1))
            }
            end = start
        }
        return Int(size)
    }
}
