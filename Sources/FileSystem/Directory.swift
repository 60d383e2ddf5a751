import Glibc
import TasksCommon

/// An open folder, read entry by entry; closed in `deinit`.
/// Not `Sendable`: one owner lists it.
package final class Directory {
    /// One entry's name and the type `readdir` gives (nil when the file system leaves it unknown).
    package struct Entry {
        package let name: [UInt8]
        package let type: FileStatus.FileType?
    }

    // +1, ours: closed in deinit.
    private let stream: OpaquePointer

    /// Opens the folder at `path`. The corresponding C function is `opendir`.
    package init(opening path: FileSystemPath) throws(Errno) {
        guard let stream = path.withCString({ opendir($0) }) else { throw .current }
        self.stream = stream
    }

    deinit { closedir(stream) }

    /// Every entry but "." and "..", in the folder's order. The corresponding C function is `readdir`.
    package func entries() throws(Errno) -> [Entry] {
        var entries: [Entry] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw .current }
                return entries
            }
            // Borrowed: the entry lives until the next readdir; its name is copied at once.
            var nameField = entry.pointee.d_name
            let name = withUnsafeBytes(of: &nameField) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            entries.append(Entry(name: name, type: Self.type(entry.pointee.d_type)))
        }
    }

    /// The status of the entry `name`, relative to the open folder (so the folder's path length
    /// does not matter); nil when it cannot be had. The corresponding C function is `fstatat`.
    package func status(of name: [UInt8], followingLinks: Bool) -> FileStatus? {
        var raw = stat()
        let result = (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                fstatat(dirfd(stream), $0.baseAddress!, &raw, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW)
            }
        }
        return result == 0 ? FileStatus(raw) : nil
    }

    /// The names of the entries of the folder at `path`; empty when it cannot be read.
    package static func names(in path: FileSystemPath) -> [[UInt8]] {
        ((try? Directory(opening: path).entries()) ?? []).map(\.name)
    }

    private static func type(_ raw: UInt8) -> FileStatus.FileType? {
        switch Int32(raw) {
        case Int32(DT_REG): .regular
        case Int32(DT_DIR): .directory
        case Int32(DT_LNK): .symbolicLink
        case Int32(DT_FIFO): .fifo
        case Int32(DT_CHR): .characterDevice
        case Int32(DT_BLK): .blockDevice
        case Int32(DT_SOCK): .socket
        default: nil
        }
    }
}
