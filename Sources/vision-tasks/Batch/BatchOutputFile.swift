import FileSystem
import Glibc
import ImageTasks
import TasksCommon

/// `--output FILE` and the partial last line a killed run leaves in a jsonl file.
///
/// A run killed while writing leaves its last record cut short. `--resume` then tries that
/// image again; `>> OUT.jsonl` would append its new record to the fragment, so neither line
/// parses. `--output` removes the fragment before appending; with `>>`, a warning says so.
enum BatchOutputFile {
    /// Opens `--output` for appending (created when missing) with its partial last line removed,
    /// as standard output; then warns when the `--resume` file still ends with a partial line.
    /// - Returns: false after reporting on stderr a file that cannot be opened or cut.
    static func prepare(_ options: BatchOptionGroup) -> Bool {
        do throws(TasksError) {
            if let output = options.output { try appendStandardOutput(to: output) }
            if let resume = options.resume {
                let partial = try JSONLinesTail.partialLineLength(of: resume)
                if partial > 0 {
                    let file = TableText.escaped(resume)
                    StandardStreams.warn(
                        "warning: \(file) ends with a partial line (\(partial) bytes, left by an interrupted run): its image is "
                            + "processed again. Appending with >> \(file) would join the next record to it; "
                            + "--output \(file) removes it first.")
                }
            }
            return true
        } catch {
            StandardStreams.reportError(error)
            return false
        }
    }

    /// Points descriptor 1 at `path`, opened to append, after cutting a partial last line.
    private static func appendStandardOutput(to path: String) throws(TasksError) {
        let file = try FileSystemPath(path).failing(as: .output, .create) { () throws(Errno) in
            try FileDescriptor.open(FileSystemPath(path), O_RDWR | O_APPEND | O_CREAT)
        }
        let removed = try JSONLinesTail.removePartialLine(file, path: path)
        if removed > 0 {
            StandardStreams.warn(
                "warning: removed the partial last line of \(TableText.escaped(path)) (\(removed) bytes, left by an "
                    + "interrupted run); its image is processed again if it is given")
        }
        try FileSystemPath(path).failing(as: .output, .write) { () throws(Errno) in try file.replace(STDOUT_FILENO) }
    }
}
