import Glibc
import TasksCommon

/// What `stat(2)` says of a file: its type, size and identity.
package struct FileStatus: Sendable, Equatable {
    /// The file's type.
    package enum FileType: Sendable, Equatable {
        case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink
        /// Any other mode (octal in messages).
        case other(mode: UInt32)

        /// How messages call it after "this is" ("a directory", "a FIFO").
        package var phrase: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a directory"
            case .fifo: "a FIFO"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .symbolicLink: "a symbolic link"
            case .other(let mode): "of file mode \(String(mode, radix: 8))"
            }
        }
    }

    package let type: FileType
    /// The size in bytes.
    package let size: Int
    /// The device and inode: the same file whatever its path.
    package let device: UInt64
    package let inode: UInt64
    /// The last change of the contents, in nanoseconds since 1970.
    package let modifiedNanoseconds: Int64
    /// The permission bits (`st_mode & 0o7777`: owner, group, others, set-id and sticky).
    package let permissions: mode_t

    init(_ raw: stat) {
        switch raw.st_mode & S_IFMT {
        case S_IFREG: type = .regular
        case S_IFDIR: type = .directory
        case S_IFIFO: type = .fifo
        case S_IFCHR: type = .characterDevice
        case S_IFBLK: type = .blockDevice
        case S_IFSOCK: type = .socket
        case S_IFLNK: type = .symbolicLink
        default: type = .other(mode: UInt32(raw.st_mode))
        }
        size = Int(raw.st_size)
        device = UInt64(raw.st_dev)
        inode = UInt64(raw.st_ino)
        modifiedNanoseconds = Int64(raw.st_mtim.tv_sec) * 1_000_000_000 + Int64(raw.st_mtim.tv_nsec)
        permissions = raw.st_mode & 0o7777
    }

    /// The status of the file at `path`; with `followingLinks` false, a link's own.
    /// The corresponding C functions are `stat` and `lstat`.
    package init(of path: FileSystemPath, followingLinks: Bool = true) throws(Errno) {
        var raw = stat()
        let result = path.withCString { followingLinks ? stat($0, &raw) : lstat($0, &raw) }
        guard result == 0 else { throw .current }
        self.init(raw)
    }

    /// The status of the file at `path`, or nil when it cannot be had (missing, unreadable folder).
    package static func optional(of path: String, followingLinks: Bool = true) -> FileStatus? {
        try? FileStatus(of: FileSystemPath(path), followingLinks: followingLinks)
    }

    /// Whether `path` is a folder (a link to one counts).
    package static func isDirectory(_ path: FileSystemPath) -> Bool {
        (try? FileStatus(of: path))?.type == .directory
    }
}
