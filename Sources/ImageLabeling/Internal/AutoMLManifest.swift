import FileSystem
import Foundation
import TFLiteMetadata
import TasksCommon

/// An AutoML Vision Edge export read from its `manifest.json`:
/// `{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}`,
/// file names relative to the manifest's folder.
struct AutoMLManifest {
    /// The model file.
    let modelURL: URL
    /// The labels file: one label per line, in output order.
    let labelsURL: URL

    /// The only model type an image labeler accepts.
    static let imageLabelingType = "IMAGE_LABELING"

    /// Reads and checks a manifest.
    /// - Throws: `TasksError` with the manifest as subject: as `FileReader` for the manifest
    ///   itself (missing, not a regular file, over 1 MiB); notFound for a missing model or
    ///   labels file; invalidArgument for JSON that is not an object, a missing key, a value
    ///   that is not a string, another model type, or a path that is absolute or leaves the folder.
    init(path: String) throws(TasksError) {
        let manifestURL = URL(fileURLWithPath: path)
        let subject = TasksError.Subject.file(path)
        let object = try AutoMLManifest.jsonObject(at: path, subject: subject)
        let folder = manifestURL.deletingLastPathComponent()
        let modelType = try AutoMLManifest.string("modelType", in: object, subject: subject)
        guard modelType == AutoMLManifest.imageLabelingType else {
            throw .invalidArgument(
                "modelType is \"\(modelType)\"; an image labeler needs \"\(AutoMLManifest.imageLabelingType)\".",
                subject: subject)
        }
        modelURL = try AutoMLManifest.file("modelFile", in: object, folder: folder, subject: subject)
        labelsURL = try AutoMLManifest.file("labelsFile", in: object, folder: folder, subject: subject)
    }

    /// The labels, one per line, parsed as label files in model metadata are (`LabelFile`).
    /// - Throws: `TasksError` naming the labels file when it cannot be read or holds no label.
    func labels() throws(TasksError) -> [String] {
        let bytes = try FileReader.contents(atPath: labelsURL.path, as: .labels)
        let labels = LabelFile.parse(Data(bytes))
        guard !labels.isEmpty else { throw .invalidArgument("The labels file holds no label.", subject: .file(labelsURL.path)) }
        return labels
    }

    private static func jsonObject(at path: String, subject: TasksError.Subject) throws(TasksError) -> [String: Any] {
        let data = Data(try FileReader.contents(atPath: path, as: .manifest))
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw .invalidArgument("the AutoML manifest is not valid JSON.", subject: subject)
        }
        guard let object = parsed as? [String: Any] else {
            throw .invalidArgument(
                "the AutoML manifest must be a JSON object with modelFile, labelsFile and modelType.",
                subject: subject)
        }
        return object
    }

    private static func string(_ key: String, in object: [String: Any], subject: TasksError.Subject) throws(TasksError) -> String
    {
        guard let value = object[key] else { throw .invalidArgument("the key \"\(key)\" is missing.", subject: subject) }
        guard let text = value as? String, !(value is NSNumber) else {
            let shown =
                (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            throw .invalidArgument("\"\(key)\" must be a string, not \(shown).", subject: subject)
        }
        return text
    }

    /// A file named by the manifest: a relative path that stays inside the manifest's folder.
    private static func file(
        _ key: String, in object: [String: Any], folder: URL, subject: TasksError.Subject
    ) throws(TasksError) -> URL {
        let name = try string(key, in: object, subject: subject)
        let components = name.split(separator: "/", omittingEmptySubsequences: true)
        guard !name.isEmpty, !name.hasPrefix("/"), !components.contains(".."), !components.allSatisfy({ $0 == "." }) else {
            throw .invalidArgument("\"\(key)\" is \"\(name)\"; it must be a path inside the manifest's folder.", subject: subject)
        }
        let url = folder.appendingPathComponent(name)
        // A symbolic link inside the export must not lead out of it either.
        let realFolder = folder.resolvingSymlinksInPath().path
        guard url.resolvingSymlinksInPath().path.hasPrefix(realFolder + "/") else {
            throw .invalidArgument(
                "\"\(key)\" (\(name)) leads outside the manifest's folder through a symbolic link.", subject: subject)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .notFound("\"\(key)\" names \(url.path), which does not exist or is not a file.", subject: subject)
        }
        return url
    }
}
