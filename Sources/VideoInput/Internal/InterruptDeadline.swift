import CFFmpeg

/// The time budget of one blocking FFmpeg call, polled by FFmpeg through `AVIOInterruptCB`
/// (`svt_interrupt_callback`) and by `svt_fd_read_packet`.
///
/// Owns its C struct (allocated in `init`, freed in `deinit`); every context it is installed
/// on keeps a strong reference to it. Not thread-safe: used by the thread that makes the call.
final class InterruptDeadline {
    /// The C state; +1, owned by this object.
    let pointer: UnsafeMutablePointer<SVTDeadline>
    /// The budget of one blocking call, in milliseconds (> 0).
    let timeoutInMilliseconds: Int

    /// Creates a deadline that has not started; `reset()` starts each budget.
    ///
    /// - Parameter timeoutInMilliseconds: The budget of each blocking call, > 0.
    init(timeoutInMilliseconds: Int) {
        self.timeoutInMilliseconds = timeoutInMilliseconds
        pointer = .allocate(capacity: 1)
        let (microseconds, overflow) = Int64(timeoutInMilliseconds).multipliedReportingOverflow(by: 1000)
        pointer.initialize(
            to: SVTDeadline(timeout_us: overflow ? Int64.max / 2 : microseconds, deadline_us: 0, expired: 0, ever_expired: 0))
        svt_deadline_reset(pointer)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Starts a new budget of `timeoutInMilliseconds` from now (`svt_deadline_reset`).
    func reset() {
        svt_deadline_reset(pointer)
    }

    /// Whether the current budget is used up; records it so that `hasExpired` stays true
    /// until the next `reset()` (`svt_interrupt_callback`).
    func checkExpired() -> Bool {
        svt_interrupt_callback(pointer) != 0
    }

    /// Whether FFmpeg or `checkExpired()` found the current budget used up.
    var hasExpired: Bool {
        pointer.pointee.expired != 0
    }

    /// Whether any budget was ever used up. FFmpeg's I/O contexts keep a read error, so an
    /// input interrupted once (even inside a call that then succeeded, such as probing)
    /// answers `AVERROR_EXIT` at once from then on.
    var hasEverExpired: Bool {
        pointer.pointee.ever_expired != 0
    }
}
