import Foundation
import TasksCommon
import VideoInput

/// Reads a video's frames on a thread of its own, a few frames ahead of the classifier, so that
/// decoding (with the decoder threads the source options give) overlaps inference instead of
/// alternating with it.
///
/// The `VideoSource` is opened and used on that thread only; frames (`Sendable` values) cross
/// over through a queue of `capacity` frames, which bounds the memory.
final class VideoFrameReader: @unchecked Sendable {
    /// What the command reports about the source.
    struct Facts: Sendable {
        let url: String
        let frameRate: Double?
        let durationInMilliseconds: Int?
        /// Packets skipped as damaged (final once the reading ended).
        var damagedPacketCount: Int
    }

    /// Frames decoded ahead at most.
    static let capacity = 3

    // Guarded by `condition`, broadcast on every change.
    private let condition = NSCondition()
    private var opened: Result<Facts, TasksError>?
    private var frames: [VideoFrame] = []
    private var ended = false
    private var failure: TasksError?
    private var facts: Facts?

    /// Starts opening `url` and reading its frames.
    init(url: String, options: VideoSourceOptions) {
        let thread = Thread { [self] in read(url: url, options: options) }
        thread.name = "vision-tasks video reader"
        thread.start()
    }

    /// Waits until the source is open; its facts, or why it could not be opened.
    func waitForOpen() -> Result<Facts, TasksError> {
        condition.lock()
        defer { condition.unlock() }
        while opened == nil { condition.wait() }
        return opened!
    }

    /// The next frame, waiting for it; nil at the end of the video or after a read error
    /// (`end` tells which).
    func next() -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        while frames.isEmpty && !ended { condition.wait() }
        guard !frames.isEmpty else { return nil }
        condition.broadcast()
        return frames.removeFirst()
    }

    /// After `next` returned nil: the error that ended the reading early, if any, and the facts
    /// with the final count of damaged packets.
    var end: (failure: TasksError?, facts: Facts?) {
        condition.lock()
        defer { condition.unlock() }
        return (failure, facts)
    }

    private func read(url: String, options: VideoSourceOptions) {
        let source: VideoSource
        do throws(TasksError) {
            source = try VideoSource(url: url, options: options)
        } catch {
            update {
                opened = .failure(error); ended = true
            }
            return
        }
        var facts = Facts(
            url: source.url, frameRate: source.frameRate, durationInMilliseconds: source.durationInMilliseconds,
            damagedPacketCount: 0)
        update { opened = .success(facts) }
        var failure: TasksError?
        do throws(TasksError) {
            while let frame = try source.nextFrame() {
                condition.lock()
                while frames.count >= Self.capacity { condition.wait() }
                frames.append(frame)
                condition.broadcast()
                condition.unlock()
            }
        } catch {
            failure = error
        }
        facts.damagedPacketCount = source.damagedPacketCount
        update {
            self.failure = failure
            self.facts = facts
            ended = true
        }
    }

    private func update(_ change: () -> Void) {
        condition.lock()
        change()
        condition.broadcast()
        condition.unlock()
    }
}
