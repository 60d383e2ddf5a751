import FileSystem
import Glibc
import TasksCommon

/// What makes two names one file: its device and inode (`stat`), the same through symbolic
/// links, `..`, `./` and hard links (`similar` lists each file once and never the query;
/// `train` counts validation photos that are training files).
package struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file's identity, or nil when it cannot be read (then it is compared by name only).
    /// The corresponding C function is `stat`.
    package init?(_ path: FileSystemPath) {
        guard let status = try? FileStatus(of: path) else { return nil }
        device = status.device
        inode = status.inode
    }
}
