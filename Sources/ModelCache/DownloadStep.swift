import TasksCommon

/// The steps of a download, named in its errors ("flowers: download failed at step verify: ...").
package enum DownloadStep: String, Sendable, CaseIterable {
    /// Fetching and parsing `index.json`, and finding the model in it.
    case index
    /// Transferring the bundle into a temporary file.
    case transfer
    /// Checking the bundle's size and SHA-256 against the index.
    case verify
    /// Unpacking a zip bundle.
    case unpack
    /// Loading the unpacked model as a classifier or labeler.
    case load
    /// Moving the new version in place.
    case install
}

extension TasksError {
    /// An error of `step` in the download of `model`, its subject the remote model.
    package static func download(
        _ code: TasksErrorCode, step: DownloadStep, model: String, _ reason: String
    ) -> TasksError {
        TasksError(code, "download failed at step \(step.rawValue): \(reason)", subject: .remoteModel(model))
    }

    /// `error` reported as a failure of `step` of the download of `model`, keeping its code; its
    /// own subject, if any, is kept in the reason.
    package func inDownload(step: DownloadStep, model: String) -> TasksError {
        .download(code, step: step, model: model, message)
    }
}
