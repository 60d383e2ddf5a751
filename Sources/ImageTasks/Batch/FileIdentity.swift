import Glibc
import TasksCommon

/// What makes two names one file: its device and inode (`stat`), the same through symbolic
/// links, `..`, `./` and hard links (`similar` lists each file once and never the query;
/// `train` counts validation photos that are training files).
package struct FileIdentity: Hashable, Sendable {
    let device: UInt
    let inode: UInt

    /// The file's identity, or nil when it cannot be read (then it is compared by name only).
    /// The corresponding C function is `stat`.
    package init?(_ path: FileSystemPath) {
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else { return nil }
        device = UInt(status.st_dev)
        inode = UInt(status.st_ino)
    }
}
