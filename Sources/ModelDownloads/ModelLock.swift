import Glibc

/// An exclusive `flock(2)` on a model's folder in the cache, held until this is deallocated
/// (or its process dies: the kernel releases it then). Obtained from `ModelStore.lock` or
/// `ModelStore.tryLock`; the store's operations that change a model take it as proof.
/// Not `Sendable`: its holder keeps it for the span of one download or install.
package final class ModelLock {
    // Ours: closed in deinit, which releases the lock.
    private let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Whether the locked folder is still the one at `path` (same device and inode).
    func isOnFolder(atPath path: String) -> Bool {
        var locked = stat()
        var current = stat()
        guard fstat(descriptor, &locked) == 0, stat(path, &current) == 0 else { return false }
        return locked.st_dev == current.st_dev && locked.st_ino == current.st_ino
    }
}
