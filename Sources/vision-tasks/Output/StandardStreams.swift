import FileSystem
import Foundation
import TasksCommon

/// Writing to stdout and stderr.
enum StandardStreams {
    /// Writes one line to standard output at once (unbuffered, unlike `print` into a pipe), so
    /// that results of video and live streams reach a reader as they come.
    static func emit(_ line: String) {
        write(Data((line + "\n").utf8))
    }

    /// Writes bytes to standard output at once; a failure is fatal, as for `emit`.
    static func write(_ data: Data) {
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            // The reader went away (EPIPE with SIGPIPE ignored): end quietly, as SIGPIPE would.
            if posixCode(of: error) == EPIPE { exit(141) }
            // Anything else (a full disk, an I/O error) loses results: say so.
            warn(
                "error: cannot write the results to standard output: \(posixCode(of: error).map { Errno($0).description } ?? "\(error)")"
            )
            exit(1)
        }
    }

    /// The errno behind a Foundation write error (its underlying POSIX error), if any.
    private static func posixCode(of error: any Error) -> Int32? {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return [underlying, error as NSError].compactMap { $0 }.first { $0.domain == NSPOSIXErrorDomain }.map { Int32($0.code) }
    }

    /// Writes one line to standard error.
    static func warn(_ line: String) {
        writeError(Data((line + "\n").utf8))
    }

    /// Writes bytes to standard error, ignoring a failure: a closed or full stderr loses the
    /// messages but must not stop the work (`FileHandle.write(_:)` would trap).
    static func writeError(_ data: Data) {
        try? FileHandle.standardError.write(contentsOf: data)
    }

    /// Prints "error: CODE: message" on stderr; the message names its subject (the model,
    /// manifest, image or video), with control characters escaped.
    static func reportError(_ error: TasksError) {
        warn("error: \(ErrorText.describe(error))")
    }
}
