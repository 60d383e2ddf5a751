import Glibc
import TasksCommon

/// An open file descriptor, owned: closed in `deinit`. Every read and write of the package goes
/// through one (`FileReader`, `AtomicWrite`, the report, the resume and list files), so the
/// retries on EINTR and the error words are the same everywhere.
/// Not `Sendable`: one owner reads or writes it.
package final class FileDescriptor {
    /// The descriptor, for the few callers that hand it to a C library (FFmpeg, `dup2`).
    package let rawValue: Int32

    /// Takes ownership of `rawValue`.
    package init(adopting rawValue: Int32) { self.rawValue = rawValue }

    deinit { close(rawValue) }

    /// Opens `path` with `flags` (`O_CLOEXEC` is always added); `mode` for a file it creates.
    /// The corresponding C function is `open`.
    package static func open(_ path: FileSystemPath, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let raw = try Errno.retryingInterrupts { path.withCString { Glibc.open($0, flags | O_CLOEXEC, mode) } }
        return FileDescriptor(adopting: raw)
    }

    /// A private duplicate of a descriptor the caller keeps (`F_DUPFD_CLOEXEC`).
    package static func duplicate(_ descriptor: Int32) throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try Errno.retryingInterrupts { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) })
    }

    /// Reads up to `buffer.count` bytes at the current offset; 0 at the end of the file.
    /// The corresponding C function is `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        return try Errno.retryingInterrupts { Glibc.read(rawValue, base, buffer.count) }
    }

    /// Reads up to `count` bytes (all of `bytes` when nil) into the start of `bytes`, at the
    /// current offset or at `offset` without moving it; 0 at the end of the file.
    package func read(into bytes: inout [UInt8], count: Int? = nil, at offset: Int? = nil) throws(Errno) -> Int {
        var failure: Errno?
        let done = bytes.withUnsafeMutableBytes { buffer in
            let part = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(count ?? buffer.count, buffer.count)])
            do throws(Errno) {
                if let offset { return try read(into: part, at: offset) }
                return try read(into: part)
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return done
    }

    /// Reads up to `count` bytes at `offset`, without moving the file offset.
    /// The corresponding C function is `pread`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        return try Errno.retryingInterrupts { pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// Writes all of `bytes` (a short write is continued). The corresponding C function is `write`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try Errno.retryingInterrupts { Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset) }
        }
    }

    /// Writes all of `bytes`: in place when they are contiguous (`Data`, an array, a native
    /// string's UTF-8), through one copy otherwise.
    package func write(_ bytes: some Sequence<UInt8>) throws(Errno) {
        var failure: Errno?
        let writeBuffer = { (buffer: UnsafeRawBufferPointer) in
            do throws(Errno) { try self.write(buffer) } catch { failure = error }
        }
        if bytes.withContiguousStorageIfAvailable({ writeBuffer(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes(writeBuffer)
        }
        if let failure { throw failure }
    }

    /// Flushes the file's data and size to the disk. The corresponding C function is `fsync`.
    package func sync() throws(Errno) {
        try Errno.retryingInterrupts { fsync(rawValue) }
    }

    /// The open file's status. The corresponding C function is `fstat`.
    package func status() throws(Errno) -> FileStatus {
        var raw = stat()
        guard fstat(rawValue, &raw) == 0 else { throw .current }
        return FileStatus(raw)
    }

    /// Sets the file's permission bits to `permissions` (as `FileStatus.permissions` reads them).
    /// The corresponding C function is `fchmod`.
    package func setPermissions(_ permissions: mode_t) throws(Errno) {
        try Errno.retryingInterrupts { fchmod(rawValue, permissions) }
    }

    /// Moves the file offset to `offset` from the start; returns it.
    @discardableResult
    package func seek(to offset: Int) throws(Errno) -> Int {
        Int(try Errno.retryingInterrupts { lseek(rawValue, off_t(offset), SEEK_SET) })
    }

    /// Cuts (or extends) the file to `size` bytes. The corresponding C function is `ftruncate`.
    package func truncate(to size: Int) throws(Errno) {
        try Errno.retryingInterrupts { ftruncate(rawValue, off_t(size)) }
    }

    /// Takes an exclusive `flock(2)` without waiting: false when another holds it. Released
    /// when this is closed.
    package func tryLockExclusively() throws(Errno) -> Bool {
        while flock(rawValue, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw .current
        }
        return true
    }

    /// Points `target` (1 for standard output) at this file. The corresponding C function is `dup2`.
    package func replace(_ target: Int32) throws(Errno) {
        try Self.redirect(target, to: rawValue)
    }

    /// Points descriptor `target` at the file open as `source`, neither owned here (a C
    /// library's `FILE`, a standard stream). The corresponding C function is `dup2`.
    package static func redirect(_ target: Int32, to source: Int32) throws(Errno) {
        try Errno.retryingInterrupts { dup2(source, target) }
    }
}
