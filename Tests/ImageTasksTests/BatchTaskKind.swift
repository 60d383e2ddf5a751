import Foundation
import ImageLabeling
import ImageTasks
import LabelingTasks
import TasksCommon
import TestSupport
import Testing
import VisionTasks

/// The tasks the batch tests run, each loaded from the shared test data, and run through the
/// same generic code: the batch runner must treat every task alike.
enum BatchTaskKind: String, CaseIterable, CustomTestStringConvertible {
    case classify
    case label
    case embed

    var testDescription: String { rawValue }

    /// What the batch tests need of a run: each image's path text, whether it failed, its
    /// record as JSON, and the error's status name.
    struct Line: Equatable {
        let image: String
        let record: String
        let errorCode: String?
    }

    /// Runs the task over `source` with `jobs` instances.
    func run(_ source: ImageSource, jobs: Int) throws -> (lines: [Line], listFailure: TasksError?) {
        switch self {
        case .classify: try Self.run(source, tasks: (0..<jobs).map { _ in try Self.classifier() })
        case .label: try Self.run(source, tasks: (0..<jobs).map { _ in try Self.labeler() })
        case .embed: try Self.run(source, tasks: (0..<jobs).map { _ in try Self.embedder() })
        }
    }

    /// The `--resume` file of this task at `path`.
    func resumeFile(_ path: String) -> ResumeFile {
        switch self {
        case .classify: ResumeFile(path, for: ClassificationOutput.self)
        case .label: ResumeFile(path, for: LabelingOutput.self)
        case .embed: ResumeFile(path, for: EmbeddingOutput.self)
        }
    }

    /// The member holding this task's output in a record.
    var recordKey: String { resumeFile("").recordKey }

    /// Another task's output member.
    var otherRecordKey: String { self == .classify ? "embeddings" : "classifications" }

    /// The record of one image processed directly by a fresh instance (not through the runner).
    func directRecord(_ path: String) throws -> String {
        switch self {
        case .classify: try Self.record(of: path, task: Self.classifier())
        case .label: try Self.record(of: path, task: Self.labeler())
        case .embed: try Self.record(of: path, task: Self.embedder())
        }
    }

    private static func classifier() throws -> ClassificationTask {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
        options.baseOptions.threadCount = 1
        options.maxResults = 3
        return try ClassificationTask(options: options, processing: ImageProcessing())
    }

    private static func labeler() throws -> LabelingTask {
        let options = CustomImageLabelerOptions(
            localModel: LocalModel(path: TestData.model("mobilenet_v1_0.25_224_quant.tflite").path))
        options.maxResultCount = 3
        return try LabelingTask(options: options)
    }

    private static func embedder() throws -> EmbeddingTask {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v2_035_96_embedder_with_metadata.tflite").path
        options.baseOptions.threadCount = 1
        return try EmbeddingTask(options: options, processing: ImageProcessing())
    }

    private static func run<Task: ImageTask>(_ source: ImageSource, tasks: [Task]) throws -> ([Line], TasksError?) {
        var lines: [Line] = []
        let failure = BatchRunner.run(source: source, tasks: tasks) { outcome in
            let record = (try? JSONText.encode(outcome.record)) ?? "(unencodable)"
            let code = outcome.record.error?.code
            lines.append(Line(image: outcome.path.description, record: record, errorCode: code))
        }
        return (lines, failure)
    }

    private static func record<Task: ImageTask>(of path: String, task: Task) throws -> String {
        let outcome = BatchRunner.outcome(of: .file(FileSystemPath(path)), task: task)
        return try JSONText.encode(outcome.record)
    }
}
