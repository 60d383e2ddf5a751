import ImageLabeling
import TasksCommon
import VisionTasks

/// What became of one image of classify or label.
struct ImageOutcome: Sendable {
    enum Payload: Sendable {
        case classifications([Classifications])
        case labels([ImageLabel])
        case error(TasksError)
    }

    /// The image's path, as given or found in a folder.
    let path: FileSystemPath
    let payload: Payload

    /// An outcome whose scores are checked: a result with a non-finite score becomes an error.
    init(path: FileSystemPath, payload: Payload) {
        self.path = path
        let failure: TasksError? =
            switch payload {
            case .classifications(let heads): ScoreCheck.error(in: heads)
            case .labels(let labels): ScoreCheck.error(in: labels)
            case .error: nil
            }
        self.payload = failure.map(Payload.error) ?? payload
    }

    var failed: Bool {
        if case .error = payload { return true }
        return false
    }

    /// The outcome as JSON prints it.
    var record: ImageOutcomeRecord {
        var record = ImageOutcomeRecord(image: path.description)
        switch payload {
        case .classifications(let heads): record.classifications = heads.map(HeadRecord.init)
        case .labels(let labels): record.labels = labels.map(LabelRecord.init)
        case .error(let error): record.error = ErrorRecord(error)
        }
        return record
    }
}
