import Glibc

/// A failed system call's error number, as the layer's calls throw it; `tasksError(path:kind:_:)`
/// turns it into the `TasksError` a user reads (the one place errno becomes an error).
///
/// Modelled on swift-system's `Errno`: a typed value a caller can match (`== .noSuchFile`)
/// before deciding what it means for its own file.
package struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error number (`ENOENT`, ...).
    package let code: Int32

    package init(_ code: Int32) { self.code = code }

    /// The calling thread's `errno`, read right after the failed call.
    package static var current: Errno { Errno(errno) }

    /// The system's text for it ("No such file or directory").
    package var description: String { String(cString: strerror(code)) }

    package static let noSuchFile = Errno(ENOENT)
    package static let fileExists = Errno(EEXIST)
    package static let notEmpty = Errno(ENOTEMPTY)
    package static let nameTooLong = Errno(ENAMETOOLONG)

    /// Whether nothing is at the path (ENOENT, or ENOTDIR for a file where a folder should be).
    package var meansNotFound: Bool { code == ENOENT || code == ENOTDIR }
    /// Whether the system refused the access (EACCES, EPERM, EROFS).
    package var meansPermissionDenied: Bool { code == EACCES || code == EPERM || code == EROFS }

    /// Runs `call` until it is not interrupted (EINTR); a negative result throws the errno.
    @discardableResult
    package static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            guard errno == EINTR else { throw .current }
        }
    }
}
