import Foundation

/// The error every SwiftVisionTasks API throws: a MediaPipe error code and a message
/// that names the problem (the file, field or value at fault).
///
/// Mirrors the `NSError`s of MediaPipe Tasks iOS: bridged to `NSError` it has the domain
/// `"com.google.mediapipe.tasks"`, the code's raw value, and the localized description
/// `"<STATUS_NAME>: <message>"` (for example `"INVALID_ARGUMENT: Invalid \`max_results\`
/// option: value must be != 0."`). On Linux a `catch let error as NSError` pattern does not
/// match Swift errors (Foundation there does not bridge implicitly); write
/// `catch { let error = error as NSError ... }` instead, which works on every platform.
public struct TasksError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The MediaPipe error domain.
    public static let domain = "com.google.mediapipe.tasks"

    /// What kind of failure this is.
    public let code: TasksErrorCode
    /// The failure, without the status-name prefix.
    public let message: String

    /// Creates an error with a code and a message (without the status-name prefix).
    public init(_ code: TasksErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `"<STATUS_NAME>: <message>"`, as MediaPipe's `localizedDescription`.
    public var description: String { "\(code.statusName): \(message)" }

    /// Shorthand for an `invalidArgumentError`.
    public static func invalidArgument(_ message: String) -> TasksError { TasksError(.invalidArgumentError, message) }
    /// Shorthand for a `notFoundError`.
    public static func notFound(_ message: String) -> TasksError { TasksError(.notFoundError, message) }
    /// Shorthand for an `internalError`.
    public static func `internal`(_ message: String) -> TasksError { TasksError(.internalError, message) }
    /// Shorthand for an `unimplementedError`.
    public static func unimplemented(_ message: String) -> TasksError { TasksError(.unimplementedError, message) }
    /// Shorthand for a `failedPreconditionError`.
    public static func failedPrecondition(_ message: String) -> TasksError { TasksError(.failedPreconditionError, message) }
}

extension TasksError: CustomNSError, LocalizedError {
    /// `"com.google.mediapipe.tasks"`, the `NSError` domain of MediaPipe Tasks.
    public static var errorDomain: String { domain }
    /// The code's raw value (the absl status code), the bridged `NSError.code`.
    public var errorCode: Int { code.rawValue }
    /// `"<STATUS_NAME>: <message>"`, as MediaPipe's `localizedDescription`.
    public var errorDescription: String? { description }
    /// Carries the description for `NSError.localizedDescription`, which on Linux does not consult `LocalizedError`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
