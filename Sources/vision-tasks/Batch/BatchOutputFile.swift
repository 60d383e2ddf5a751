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
    /// What `prepare` did: the `--output` file it created, if any.
    struct Prepared {
        let created: FileSystemPath?

        /// Removes the `--output` file `prepare` created while it is still empty, for a run
        /// refused before its first record (a resume file that cannot be read): nothing is left
        /// behind.
        func discard() {
            guard let created, (try? FileStatus(of: created))?.size == 0 else { return }
            FileTree.remove(created)
        }
    }

    /// Opens `--output` for appending (created when missing) with its partial last line removed,
    /// as standard output; then warns when the `--resume` file still ends with a partial line.
    /// - Returns: nil after reporting on stderr a file that cannot be opened or cut (an output
    ///   it created is then removed).
    static func prepare(_ options: BatchOptionGroup) -> Prepared? {
        var prepared = Prepared(created: nil)
        do throws(TasksError) {
            if let output = options.output { prepared = try appendStandardOutput(to: output) }
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
            return prepared
        } catch {
            prepared.discard()
            StandardStreams.reportError(error)
            return nil
        }
    }

    /// Points descriptor 1 at `path`, opened to append, after cutting a partial last line.
    private static func appendStandardOutput(to path: String) throws(TasksError) -> Prepared {
        let (location, existing) = try AtomicWrite.outputFile(at: FileSystemPath(path), kind: .output)
        let file = try FileSystemPath(path).failing(as: .output, .create) { () throws(Errno) in
            try FileDescriptor.open(location, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW)
        }
        let removed = try JSONLinesTail.removePartialLine(file, path: path)
        if removed > 0 {
            StandardStreams.warn(
                "warning: removed the partial last line of \(TableText.escaped(path)) (\(removed) bytes, left by an "
                    + "interrupted run); its image is processed again if it is given")
        }
        try FileSystemPath(path).failing(as: .output, .write) { () throws(Errno) in try file.replace(STDOUT_FILENO) }
        return Prepared(created: existing == nil ? location : nil)
    }
}
