import Foundation

extension Notification.Name {
    /// Posted on `NotificationCenter.default` when a download started by
    /// ``ModelManager/download(_:conditions:)`` has installed the model (or found it up to date).
    /// `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the ``RemoteModel``.
    /// Mirrors ML Kit's `.mlkitModelDownloadDidSucceed`. Posted on the download's own thread.
    public static let mlkitModelDownloadDidSucceed = Notification.Name("MLKitModelDownloadDidSucceedNotification")

    /// Posted on `NotificationCenter.default` when a download failed; the model's previous
    /// version, if any, is still installed. `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]`
    /// is the ``RemoteModel`` and `userInfo[ModelDownloadUserInfoKey.error.rawValue]` the
    /// `TasksError`: its subject is the model and its reason names the step that failed
    /// (index, transfer, verify, unpack, load, install). Mirrors ML Kit's
    /// `.mlkitModelDownloadDidFail`. Posted on the download's own thread.
    public static let mlkitModelDownloadDidFail = Notification.Name("MLKitModelDownloadDidFailNotification")
}

/// The keys of the download notifications' `userInfo`. Mirrors ML Kit's `ModelDownloadUserInfoKey`.
public struct ModelDownloadUserInfoKey: RawRepresentable, Hashable, Sendable {
    /// The key's string, used in `userInfo`.
    public let rawValue: String

    /// The key `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The ``RemoteModel`` the notification is about.
    public static let remoteModel = ModelDownloadUserInfoKey(rawValue: "MLKitModelDownloadUserInfoKeyRemoteModel")
    /// The error of a failed download (a `TasksError`).
    public static let error = ModelDownloadUserInfoKey(rawValue: "MLKitModelDownloadUserInfoKeyError")
}
