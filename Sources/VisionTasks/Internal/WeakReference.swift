/// A weak reference that the live-stream delivery queue reads: set before any frame can be
/// sent, then only read (hence the unchecked `Sendable`).
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?

    init(_ object: Object? = nil) { self.object = object }
}
