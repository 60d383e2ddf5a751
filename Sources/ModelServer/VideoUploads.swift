import Foundation
import ImageTasks
import ServedModels
import Synchronization
import TasksCommon
import VideoTasks
import VisionTasks

/// What a video upload may be (`POST /v1/models/NAME/classify-video`); the server enforces it.
package struct VideoUploadLimits: Sendable {
    /// Bytes of video at most (413 above, before the body is read when it has a Content-Length).
    package var maxBytes = 16 * 1024 * 1024
    /// Videos classified at once (503 with Retry-After above): each decodes and classifies for
    /// seconds, and live frames must not wait behind many of them.
    package var maxConcurrent = 1
    /// The duration limit and the sampling interval.
    package var classification = VideoClassification.Limits()

    package init() {}

    /// As `GET /v1/models` reports them, for the page to check a file before sending it.
    var json: [String: Int] {
        ["maxBytes": maxBytes, "maxSeconds": classification.maxDurationMilliseconds / 1000]
    }
}

/// The progress of the videos being classified, by the job name their uploads carry
/// (`?job=NAME`), so a page can poll `GET /v1/videos/NAME` while its upload waits for the answer.
final class VideoJobs: Sendable {
    private let progress = Mutex([String: Double]())
    private let running = Mutex(0)

    /// Takes a slot of `limit` running videos; false when all are taken.
    func begin(limit: Int) -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives back the slot `begin` took.
    func end() { running.withLock { $0 -= 1 } }

    /// Sets (or with nil, forgets) the fraction done of `job`.
    func update(_ job: String, fraction: Double?) { progress.withLock { $0[job] = fraction } }

    /// The fraction done of `job`, or nil when no video runs under that name.
    func fraction(_ job: String) -> Double? { progress.withLock { $0[job] } }

    /// Whether `name` can name a job: 1-64 letters, digits, '-' or '_'.
    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
            }
    }
}

extension RequestHandler {
    /// `POST /v1/models/NAME/classify-video[?job=NAME&max_results=..]`: the body is a video
    /// (any Content-Type; FFmpeg probes it); the answer is `VideoClassification.Outcome` as JSON.
    /// - Throws: `HTTPError` 400 for a model with no video mode, a bad job name, a video that
    ///   cannot be read or is too long; 503 when `maxConcurrent` videos are running.
    func classifyVideo(_ request: HTTPRequest, pool: ModelPool) throws(HTTPError) -> HTTPResponse {
        let parameters = try HTTPError.mapping { () throws(TasksError) in
            try ParameterParsing.parameters(query: request.head.query, others: ["job"])
        }
        let job = request.head.query["job"]
        if let job, !VideoJobs.isValidName(job) {
            throw .badRequest("Parameter 'job' must be 1 to 64 letters, digits, '-' or '_', got '\(job)'.")
        }
        guard !request.body.isEmpty else { throw .badRequest("The request has no video: its body is empty.") }
        let limits = limits.videos
        guard videoJobs.begin(limit: limits.maxConcurrent) else {
            throw HTTPError(
                503, "The server is classifying \(limits.maxConcurrent) video(s) already; try again when done.",
                headers: [("Retry-After", "5")])
        }
        defer { videoJobs.end() }
        if let job { videoJobs.update(job, fraction: 0) }
        defer { if let job { videoJobs.update(job, fraction: nil) } }
        let start = ContinuousClock.now
        let outcome = try classify(request.body, pool: pool, parameters: parameters) { [videoJobs] fraction in
            if let job { videoJobs.update(job, fraction: fraction) }
        }
        // Decoding and classifying the whole video: its inference time, as the page shows it.
        let seconds = Self.seconds(since: start)
        metrics.recordInference(model: pool.name, seconds: seconds)
        var response = try HTTPResponse.json(outcome)
        response.headers.append(Self.serverTiming(seconds))
        return response
    }

    /// `GET /v1/videos/JOB`: `{"job", "fraction"}` while the upload named JOB is classified.
    func videoProgress(_ job: String) throws(HTTPError) -> HTTPResponse {
        guard let fraction = videoJobs.fraction(job) else {
            throw HTTPError(404, "No video named '\(job)' is being classified.")
        }
        return try .json(VideoProgress(job: job, fraction: fraction))
    }

    /// Writes the video to a temporary file (FFmpeg reads files) and classifies it with a new
    /// video-mode classifier of one of the pool's instances.
    private func classify(
        _ video: Data, pool: ModelPool, parameters: RequestParameters, progress: (Double) -> Void
    ) throws(HTTPError) -> VideoClassification.Outcome {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vision-tasks-upload-\(UUID().uuidString)")
        do {
            try video.write(to: file)
        } catch {
            throw HTTPError(500, "The video could not be stored for decoding: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let classifier = try withInstance(of: pool) { instance throws(HTTPError) in
            if let problem = instance.problem(with: parameters) { throw .badRequest(problem) }
            let classifier: ImageClassifier?
            do throws(TasksError) {
                classifier = try instance.videoClassifier()
            } catch {
                throw HTTPError(error)
            }
            guard let classifier else {
                throw .badRequest(
                    "Model '\(pool.name)' is \(pool.kind.withArticle); only classifiers classify videos."
                )
            }
            return classifier
        }
        do throws(TasksError) {
            return try VideoClassification.run(
                videoAt: file.path, classifier: classifier, parameters: parameters, limits: limits.videos.classification,
                progress: progress)
        } catch {
            // The reason without its subject: the temporary file's path means nothing to the client.
            throw HTTPError(HTTPError.status(for: error), error.reason)
        }
    }
}
