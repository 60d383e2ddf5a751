import Foundation
import ImageLabeling
import TasksCommon
import TestSupport

/// Collects the download notifications about one model name and signals each.
final class DownloadWatcher: @unchecked Sendable {
    // @unchecked: `events` is guarded by `lock`; the observer token is only removed in deinit.
    enum Event: Equatable {
        case succeeded
        case failed(TasksError)
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private let signal = DispatchSemaphore(value: 0)
    private var observers: [any NSObjectProtocol] = []

    init(name: String) {
        for notification in [Notification.Name.mlkitModelDownloadDidSucceed, .mlkitModelDownloadDidFail] {
            observers.append(
                NotificationCenter.default.addObserver(forName: notification, object: nil, queue: nil) { [weak self] note in
                    guard let self, let model = note.userInfo?[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
                        model.name == name
                    else { return }
                    let error = note.userInfo?[ModelDownloadUserInfoKey.error.rawValue] as? TasksError
                    self.record(error.map(Event.failed) ?? .succeeded)
                })
        }
    }

    deinit { observers.forEach(NotificationCenter.default.removeObserver) }

    private func record(_ event: Event) {
        lock.withLock { events.append(event) }
        signal.signal()
    }

    /// The next notification, or nil when none came within the safety net.
    func next(safetyNet: Double = 120) async -> Event? {
        guard await Waiting.wait(for: signal, safetyNet: safetyNet) else { return nil }
        return lock.withLock { events.removeFirst() }
    }

    /// Every notification received and not yet returned by `next`.
    var pending: [Event] { lock.withLock { events } }
}
