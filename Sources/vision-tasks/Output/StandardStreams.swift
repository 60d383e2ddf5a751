import Foundation
import TasksCommon

/// Writing to stdout and stderr.
enum StandardStreams {
    /// Writes one line to standard output at once (unbuffered, unlike `print` into a pipe), so
    /// that results of video and live streams reach a reader as they come.
    static func emit(_ line: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            exit(141)  // the reader went away (EPIPE with SIGPIPE ignored): end as SIGPIPE would
        }
    }

    /// Writes one line to standard error.
    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Prints "error: CODE: message" on stderr; the message names its subject (the model,
    /// manifest, image or video), with control characters escaped.
    static func reportError(_ error: TasksError) {
        warn("error: \(ErrorText.describe(error))")
    }
}
