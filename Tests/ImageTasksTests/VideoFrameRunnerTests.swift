import Foundation
import ImageTasks
import TasksCommon
import TestSupport
import Testing
import VideoTasks
import VisionTasks

/// The video runner (`VideoFrameRunner`) on Matroska clips written in process (MJPEG frames of
/// burger_crop.jpg at chosen times, some replaced by damaged JPEG data): which frames each
/// sampling and timestamp policy processes, what the error policy does, and the damage facts.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct VideoFrameRunnerTests {
    /// A frame FFmpeg's MJPEG decoder rejects: a JPEG header, then nothing it can decode.
    static let damagedFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 50)

    /// Writes a clip whose frames are shown at `ticks` (of `tickNanoseconds`), the frames at
    /// `damaged` (indices into `ticks`) replaced by `damagedFrame`.
    static func clip(
        ticks: [Int], tickNanoseconds: UInt64 = 1_000_000, durationInTicks: Double? = nil, damaged: Set<Int> = [],
        in folder: URL
    ) throws -> String {
        let jpeg = Array(try TestData.bytes("images/burger_crop.jpg"))
        let frames = ticks.enumerated().map { (UInt64($0.element), damaged.contains($0.offset) ? damagedFrame : jpeg) }
        let bytes = MatroskaWriter.mjpeg(
            tickNanoseconds: tickNanoseconds, durationInTicks: durationInTicks ?? Double(ticks.last ?? 0) + 100,
            frames: frames, width: 400, height: 325)
        let path = folder.appendingPathComponent("clip.mkv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `configuration` over `clip` with a `FrameLog` task failing at `failing` (milliseconds).
    static func run(
        _ clip: String, _ configuration: VideoRunConfiguration, failing: Set<Int> = []
    ) throws -> (frames: [VideoFrameOutcome<Int>], end: VideoRunEnd) {
        let runner = try VideoFrameRunner(url: clip, configuration: configuration)
        var frames: [VideoFrameOutcome<Int>] = []
        let end = runner.run(FrameLog(failing: failing)) { frames.append($0) }
        return (frames, end)
    }

    /// 20 frames, 100 ms apart (0 ... 1900 ms), through each sampling policy, with and
    /// without reading ahead.
    @Test(
        arguments: [
            (FrameSampling.all, Array(0..<20)),
            (.every(3), [0, 3, 6, 9, 12, 15, 18]),
            (.perSecond(3), [0, 4, 8, 12, 16]),  // 333.3 ms apart: 0, 400, 800, ...
            (.interval(milliseconds: 500), [0, 5, 10, 15]),
            (.interval(milliseconds: 250), [0, 3, 6, 9, 12, 15, 18]),  // 0, 300 (>= 250), 600 (>= 550), ...
        ] as [(FrameSampling, [Int])], [0, 3])
    func samplingTakesTheseFrames(policy: (sampling: FrameSampling, indices: [Int]), readAhead: Int) throws {
        let (sampling, indices) = policy
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(ticks: Array(stride(from: 0, to: 2000, by: 100)), in: folder)
        let (frames, end) = try Self.run(clip, VideoRunConfiguration(sampling: sampling, readAhead: readAhead))
        #expect(frames.map(\.index) == indices)
        #expect(frames.map(\.timestampInMilliseconds) == indices.map { $0 * 100 })
        #expect(try frames.map { try $0.result.get() } == indices.map { $0 * 100 })
        #expect(end.failure == nil)
        #expect(end.facts.decodedFrameCount == 20)
        #expect(end.facts.processedFrameCount == indices.count)
        #expect(end.facts.lastTimestamp == 1900)
        #expect(end.facts.damagedPacketCount == 0)
        #expect(!end.facts.endsEarly)
    }

    /// Frames at 0, 100, 100.2, 200 and 300 ms: the third rounds to 100 ms again.
    @Test(
        arguments: [
            (FrameTimestamps.Policy.skip, [0, 1, 3, 4], [0, 100, 200, 300]),
            (.bump, [0, 1, 2, 3, 4], [0, 100, 101, 200, 300]),
        ] as [(FrameTimestamps.Policy, [Int], [Int])])
    func repeatedTimestamps(policy: FrameTimestamps.Policy, indices: [Int], timestamps: [Int]) throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(ticks: [0, 1000, 1002, 2000, 3000], tickNanoseconds: 100_000, in: folder)
        let (frames, end) = try Self.run(clip, VideoRunConfiguration(timestamps: policy))
        #expect(frames.map(\.index) == indices)
        #expect(frames.map(\.timestampInMilliseconds) == timestamps)
        #expect(end.facts.adjustedTimestampCount == 1)
        #expect(end.facts.lastTimestamp == 300)
    }

    /// 10 frames at 0 ... 900 ms, the 4th and 7th damaged, the task failing at 400 and 800 ms:
    /// `.continue` hands the failures on and classifies the rest; `.stop` ends at the first.
    @Test func errorPolicyOnADamagedClip() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(ticks: Array(stride(from: 0, to: 1000, by: 100)), damaged: [3, 6], in: folder)

        let (all, goingOn) = try Self.run(clip, VideoRunConfiguration(errors: .continue), failing: [400, 800])
        #expect(all.map(\.timestampInMilliseconds) == [0, 100, 200, 400, 500, 700, 800, 900])
        #expect(all.map(\.index) == Array(0..<8))
        let failures = all.filter { $0.result.error != nil }
        #expect(failures.map(\.timestampInMilliseconds) == [400, 800])
        #expect(failures.map { $0.result.error?.reason } == ["no frame at 400 ms", "no frame at 800 ms"])
        #expect(goingOn.failure == nil)
        #expect(goingOn.facts.damagedPacketCount == 2)
        #expect(goingOn.facts.decodedFrameCount == 8)
        #expect(goingOn.facts.processedFrameCount == 8)
        #expect(goingOn.facts.failedFrameCount == 2)

        let (before, stopped) = try Self.run(clip, VideoRunConfiguration(errors: .stop), failing: [400, 800])
        #expect(before.map(\.timestampInMilliseconds) == [0, 100, 200])
        #expect(stopped.failure?.reason == "no frame at 400 ms")
        #expect(stopped.facts.processedFrameCount == 4)
        #expect(stopped.facts.failedFrameCount == 1)
        #expect(stopped.facts.lastTimestamp == 400)
    }

    /// The container says 5 s; the frames end at 900 ms (a cut file). A duration just past the
    /// last frame is not early.
    @Test(arguments: [(5000.0, true), (1000.0, false)])
    func framesEndingBeforeTheDuration(durationInTicks: Double, endsEarly: Bool) throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(
            ticks: Array(stride(from: 0, to: 1000, by: 100)), durationInTicks: durationInTicks, in: folder)
        let (_, end) = try Self.run(clip, VideoRunConfiguration())
        #expect(end.facts.source.durationInMilliseconds == Int(durationInTicks))
        #expect(end.facts.lastTimestamp == 900)
        #expect(end.facts.endsEarly == endsEarly)
    }

    /// Each frame reaches the task with the run's region of interest and orientation.
    @Test func regionAndOrientationReachTheTask() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(ticks: [0, 100, 200], in: folder)
        let region = CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)
        let configuration = VideoRunConfiguration(
            processing: ImageProcessing(regionOfInterest: region, orientation: .right))
        let runner = try VideoFrameRunner(url: clip, configuration: configuration)
        let log = FrameLog()
        var frames: [VideoFrameOutcome<Int>] = []
        _ = runner.run(log) { frames.append($0) }
        #expect(log.regions.withLock { $0 } == [region, region, region])
        #expect(frames.map(\.image.orientation) == [.right, .right, .right])
        #expect(frames.map(\.image.width) == [400, 400, 400])
    }

    /// Live-stream feeding: repeated timestamps moved up, and a stop asked for after two frames.
    @Test func feedsALiveStreamTaskUntilAStop() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(ticks: [0, 1000, 1002, 2000, 3000], tickNanoseconds: 100_000, in: folder)
        let configuration = VideoRunConfiguration(timestamps: .bump)
        let all = FrameLog()
        let end = try VideoFrameRunner(url: clip, configuration: configuration).feed(all)
        #expect(all.sent.withLock { $0 } == [0, 100, 101, 200, 300])
        #expect(end.failure == nil && end.facts.adjustedTimestampCount == 1)

        let two = FrameLog()
        let stopped = try VideoFrameRunner(url: clip, configuration: configuration)
            .feed(two) { two.sent.withLock { $0.count } == 2 }
        #expect(two.sent.withLock { $0 } == [0, 100])
        #expect(stopped.failure == nil && stopped.facts.decodedFrameCount == 2)
    }

    /// A task the runner has never seen gets video by its conformance alone: MediaPipe's
    /// `ImageEmbedder` in video mode embeds every other frame as image mode embeds that frame.
    @Test func anEmbedderInVideoModeMatchesImageMode() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(ticks: Array(stride(from: 0, to: 1000, by: 100)), in: folder)
        let runner = try VideoFrameRunner(
            url: clip, configuration: VideoRunConfiguration(sampling: .every(2)))
        var frames: [VideoFrameOutcome<ImageEmbedderResult>] = []
        let end = runner.run(try Self.embedder(.video)) { frames.append($0) }
        #expect(end.failure == nil)
        let results = try frames.map { try $0.result.get() }
        #expect(results.map(\.timestampInMilliseconds) == [0, 200, 400, 600, 800])
        let still = try Self.embedder(.image)
        for (frame, result) in zip(frames, results) {
            let expected = try still.embed(image: frame.image).embeddingResult.embeddings
            #expect(result.embeddingResult.embeddings == expected, "at \(frame.timestampInMilliseconds) ms")
            #expect(expected.first?.floatEmbedding?.count == 1280)
        }
    }

    private static func embedder(_ mode: RunningMode) throws -> ImageEmbedder {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v2_035_96_embedder_with_metadata.tflite").path
        options.runningMode = mode
        return try ImageEmbedder(options: options)
    }
}

/// A stand-in task: gives each frame its timestamp back (or fails at the `failing` ones, in
/// milliseconds) and logs the regions it got and the timestamps sent in live-stream mode.
private final class FrameLog: VideoTask, LiveStreamTask {
    let failing: Set<Int>
    let regions = Locked<[CGRect]>([])
    let sent = Locked<[Int]>([])

    init(failing: Set<Int> = []) { self.failing = failing }

    func result(forVideoFrame videoFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect) throws -> Int {
        regions.withLock { $0.append(regionOfInterest) }
        guard !failing.contains(timestampInMilliseconds) else {
            throw TasksError(.invalidArgumentError, "no frame at \(timestampInMilliseconds) ms")
        }
        return timestampInMilliseconds
    }

    func send(liveStreamFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect) throws {
        sent.withLock { $0.append(timestampInMilliseconds) }
    }
}

extension Result {
    /// The failure, or nil for a success.
    fileprivate var error: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
