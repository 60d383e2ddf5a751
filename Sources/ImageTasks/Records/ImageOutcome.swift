import TasksCommon

/// What became of one image of a task: its output, or the error for it.
///
/// Every front end reports images through this value: the command line's table, JSON, CSV and
/// HTML report, and the server's responses. An output that fails its check (`TaskOutput.failure`)
/// is an error here, so that no front end can print or send it.
package struct ImageOutcome<Output: TaskOutput>: Sendable {
    /// The image's path, as given or found in a folder (for a served image, its name).
    package let path: FileSystemPath
    /// The output, or why there is none.
    package let result: Result<Output, TasksError>

    /// An outcome whose output is checked: an output with a non-finite value becomes an error.
    package init(path: FileSystemPath, result: Result<Output, TasksError>) {
        self.path = path
        if case .success(let output) = result, let failure = output.failure {
            self.result = .failure(failure)
        } else {
            self.result = result
        }
    }

    /// Whether the image failed.
    package var failed: Bool {
        if case .failure = result { return true }
        return false
    }

    /// The outcome as JSON records it: `{"image", <Output.recordKey>}` or `{"image", "error"}`.
    package var record: ImageOutcomeRecord<Output> {
        switch result {
        case .success(let output): ImageOutcomeRecord(image: path.description, output: output.record)
        case .failure(let error): ImageOutcomeRecord(image: path.description, error: ErrorRecord(error))
        }
    }
}
