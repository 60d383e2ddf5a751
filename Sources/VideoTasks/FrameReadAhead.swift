import Foundation
import ImageTasks
import TasksCommon
import VideoInput

/// Reads a video's frames on a thread of its own, up to `capacity` frames ahead of the task, so
/// that decoding (with the decoder threads the source options give) overlaps inference instead
/// of alternating with it.
///
/// The `VideoSource` is opened and used on that thread only; frames (`Sendable` values) cross
/// over through a queue of `capacity` frames, which bounds the memory. `abandon()` ends the
/// thread early (a run stopped before the end of the video), closing the source.
final class FrameReadAhead: @unchecked Sendable {
    private let capacity: Int

    // Guarded by `condition`, broadcast on every change.
    private let condition = NSCondition()
    private var opened: Result<VideoSourceFacts, TasksError>?
    private var frames: [VideoFrame] = []
    private var ended = false
    private var abandoned = false
    private var failure: TasksError?
    private var damagedPackets = 0

    /// Starts opening `url` and reading its frames, at most `capacity` (at least 1) ahead.
    init(url: String, options: VideoSourceOptions, capacity: Int) {
        self.capacity = max(capacity, 1)
        let thread = Thread { [self] in read(url: url, options: options) }
        thread.name = "vision-tasks video reader"
        thread.start()
    }

    /// Waits until the source is open; its facts, or why it could not be opened.
    func waitForOpen() -> Result<VideoSourceFacts, TasksError> {
        locked {
            while opened == nil { condition.wait() }
            return opened!
        }
    }

    /// The next frame, waiting for it; nil at the end of the video.
    /// - Throws: the read error that ended the video early, once the frames before it were taken.
    func next() throws(TasksError) -> VideoFrame? {
        let next: Result<VideoFrame?, TasksError> = locked {
            while frames.isEmpty && !ended { condition.wait() }
            guard !frames.isEmpty else { return failure.map { .failure($0) } ?? .success(nil) }
            condition.broadcast()
            return .success(frames.removeFirst())
        }
        return try next.get()
    }

    /// Packets skipped as damaged; final once `next` returned nil or threw.
    var damagedPacketCount: Int { locked { damagedPackets } }

    /// Stops reading: the thread ends at its next frame and closes the source.
    func abandon() {
        locked {
            abandoned = true
            condition.broadcast()
        }
    }

    private func read(url: String, options: VideoSourceOptions) {
        let source: VideoSource
        do throws(TasksError) {
            source = try VideoSource(url: url, options: options)
        } catch {
            locked {
                opened = .failure(error)
                ended = true
                condition.broadcast()
            }
            return
        }
        locked {
            opened = .success(VideoSourceFacts(source))
            condition.broadcast()
        }
        var failure: TasksError?
        do throws(TasksError) {
            while let frame = try source.nextFrame(), queue(frame) {}
        } catch {
            failure = error
        }
        locked {
            self.failure = failure
            damagedPackets = source.damagedPacketCount
            ended = true
            condition.broadcast()
        }
    }

    /// Waits for room and queues `frame`; false when the reading was abandoned.
    private func queue(_ frame: VideoFrame) -> Bool {
        locked {
            while frames.count >= capacity && !abandoned { condition.wait() }
            guard !abandoned else { return false }
            frames.append(frame)
            condition.broadcast()
            return true
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
