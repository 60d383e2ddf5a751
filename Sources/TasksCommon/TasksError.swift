import Foundation

/// The error every SwiftVisionTasks API throws: a MediaPipe error code, the subject at fault
/// (a file, a video source, an option), and the reason.
///
/// Mirrors the `NSError`s of MediaPipe Tasks iOS: bridged to `NSError` it has the domain
/// `"com.google.mediapipe.tasks"`, the code's raw value, and the localized description
/// `"<STATUS_NAME>: <message>"` (for example `"INVALID_ARGUMENT: Invalid \`max_results\`
/// option: value must be != 0."`), or the message alone for the checks MediaPipe iOS makes in
/// its Objective-C layer (see `Layer`). On Linux a `catch let error as NSError` pattern does not
/// match Swift errors (Foundation there does not bridge implicitly); write
/// `catch { let error = error as NSError ... }` instead, which works on every platform.
///
/// The subject is data, set where the error is raised; `message` renders it in front of the
/// reason (`"/models/m.tflite: The input tensor should have ..."`), in this one place.
public struct TasksError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The MediaPipe error domain.
    public static let domain = "com.google.mediapipe.tasks"

    /// What kind of failure this is.
    public let code: TasksErrorCode
    /// What is at fault (the model or image file, the video source, the option), or nil when
    /// the reason says everything (MediaPipe's option and running-mode errors).
    public let subject: Subject?
    /// The failure itself, without the subject or the status name: MediaPipe's message where
    /// this mirrors one.
    public let reason: String
    /// Where MediaPipe raises this error, which decides whether its description carries the
    /// status name.
    public let layer: Layer
    /// What the package's own code recognises this error as, for the branches that treat it
    /// apart (compared as a value, never by the reason's text); nil for most errors. It takes no
    /// part in equality.
    package let condition: Condition?

    /// Where MediaPipe Tasks iOS raises an error. Errors of its C++ core reach Swift through
    /// an absl status and read `"<STATUS_NAME>: <message>"`; the checks its Objective-C layer
    /// makes itself (a live-stream delegate that must or must not be set, a method that does
    /// not fit the running mode) read as the message alone. Both have the same domain and code.
    public enum Layer: Sendable, Hashable {
        /// MediaPipe's C++ core (and everything this package adds): the description starts
        /// with the status name.
        case core
        /// MediaPipe iOS's own checks: the description is the message alone.
        case platformAPI
    }

    /// The subject, then the reason: `"<subject>: <reason>"`, or the reason alone. This is
    /// what the description and `NSError.localizedDescription` show after the status name.
    /// Option subjects are not repeated: the reasons name their options in MediaPipe's words;
    /// nor is the file of MediaPipe's "Unable to open file at PATH", which names it.
    public var message: String {
        guard let subject, subject.kind != .option, condition != .modelFileNotFound else {
            return reason
        }
        return "\(subject): \(reason)"
    }

    /// Creates an error with a code, a reason (without the status-name prefix), the subject
    /// at fault, if any, and the layer of MediaPipe that raises it.
    public init(_ code: TasksErrorCode, _ reason: String, subject: Subject? = nil, layer: Layer = .core) {
        self.init(code, reason, subject: subject, layer: layer, condition: nil)
    }

    /// An error the package's own code recognises as `condition`.
    package init(_ code: TasksErrorCode, _ reason: String, subject: Subject? = nil, layer: Layer = .core, condition: Condition?) {
        self.code = code
        self.reason = reason
        self.subject = subject
        self.layer = layer
        self.condition = condition
    }

    /// Code, subject, reason and layer are equal (the condition classifies, it does not differ).
    public static func == (lhs: TasksError, rhs: TasksError) -> Bool {
        lhs.code == rhs.code && lhs.subject == rhs.subject && lhs.reason == rhs.reason && lhs.layer == rhs.layer
    }

    /// This error with `subject` as its subject when it has none yet (a nested step named a
    /// more precise one, which is kept).
    public func naming(_ subject: Subject) -> TasksError {
        self.subject == nil ? TasksError(code, reason, subject: subject, layer: layer, condition: condition) : self
    }

    /// MediaPipe's `localizedDescription`: `"<STATUS_NAME>: <message>"` for an error of its
    /// core, the message alone for one of its iOS layer (`Layer`).
    public var description: String {
        switch layer {
        case .core: "\(code.statusName): \(message)"
        case .platformAPI: message
        }
    }

    /// Shorthand for an `invalidArgumentError`.
    public static func invalidArgument(_ reason: String, subject: Subject? = nil) -> TasksError {
        TasksError(.invalidArgumentError, reason, subject: subject)
    }
    /// Shorthand for a `notFoundError`.
    public static func notFound(_ reason: String, subject: Subject? = nil) -> TasksError {
        TasksError(.notFoundError, reason, subject: subject)
    }
    /// Shorthand for an `internalError`.
    public static func `internal`(_ reason: String, subject: Subject? = nil) -> TasksError {
        TasksError(.internalError, reason, subject: subject)
    }
    /// Shorthand for an `unimplementedError`.
    public static func unimplemented(_ reason: String, subject: Subject? = nil) -> TasksError {
        TasksError(.unimplementedError, reason, subject: subject)
    }
    /// Shorthand for a `failedPreconditionError`.
    public static func failedPrecondition(_ reason: String, subject: Subject? = nil) -> TasksError {
        TasksError(.failedPreconditionError, reason, subject: subject)
    }
}

extension TasksError: CustomNSError, LocalizedError {
    /// `"com.google.mediapipe.tasks"`, the `NSError` domain of MediaPipe Tasks.
    public static var errorDomain: String { domain }
    /// The code's raw value (the absl status code), the bridged `NSError.code`.
    public var errorCode: Int { code.rawValue }
    /// `description`, as MediaPipe's `localizedDescription`.
    public var errorDescription: String? { description }
    /// Carries the description for `NSError.localizedDescription`, which on Linux does not consult `LocalizedError`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
