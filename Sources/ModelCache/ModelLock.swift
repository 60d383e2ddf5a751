import FileSystem
import TasksCommon

/// An exclusive `flock(2)` on a model's folder in the cache, held until this is deallocated
/// (or its process dies: the kernel releases it then). Obtained from `ModelStore.lock` or
/// `ModelStore.tryLock`; the store's operations that change a model take it as proof.
/// Not `Sendable`: its holder keeps it for the span of one download or install.
package final class ModelLock {
    // Closed with it, which releases the lock.
    private let folder: FileDescriptor

    init(folder: FileDescriptor) { self.folder = folder }

    /// Whether the locked folder is still the one at `path` (same device and inode).
    func isOnFolder(atPath path: String) -> Bool {
        guard let locked = try? folder.status(), let current = FileStatus.optional(of: path) else { return false }
        return locked.device == current.device && locked.inode == current.inode
    }
}
