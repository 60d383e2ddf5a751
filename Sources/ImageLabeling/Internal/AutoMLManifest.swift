import Foundation
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
    /// - Throws: `TasksError` naming the file: notFound for a missing manifest, model or labels
    ///   file; invalidArgument for JSON that is not an object, a missing key, a value that is
    ///   not a string, another model type, or a path that is absolute or leaves the folder.
    init(path: String) throws(TasksError) {
        let manifestURL = URL(fileURLWithPath: path)
        let object = try AutoMLManifest.jsonObject(at: manifestURL)
        let folder = manifestURL.deletingLastPathComponent()
        let modelType = try AutoMLManifest.string("modelType", in: object, manifest: path)
        guard modelType == AutoMLManifest.imageLabelingType else {
            throw .invalidArgument("\(path): modelType is \"\(modelType)\"; an image labeler needs \"\(AutoMLManifest.imageLabelingType)\".")
        }
        modelURL = try AutoMLManifest.file("modelFile", in: object, folder: folder, manifest: path)
        labelsURL = try AutoMLManifest.file("labelsFile", in: object, folder: folder, manifest: path)
    }

    /// The labels, one per line (`\n`, `\r\n` or `\r`), trailing empty lines dropped.
    /// - Throws: `TasksError` naming the labels file when it cannot be read or holds no label.
    func labels() throws(TasksError) -> [String] {
        try AutoMLManifest.checkRegularFile(labelsURL, limit: AutoMLManifest.maximumLabelsFileSize)
        let text: String
        do {
            text = try String(contentsOf: labelsURL, encoding: .utf8)
        } catch {
            throw .invalidArgument("\(labelsURL.path): cannot be read as UTF-8 text (\(error.localizedDescription)).")
        }
        // "\r\n" is one Character in Swift: split on any line break, as TFLite's label files are.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { throw .invalidArgument("\(labelsURL.path): the labels file holds no label.") }
        return lines
    }

    /// The largest manifest read (a manifest is three short strings).
    static let maximumManifestSize = 1 << 20
    /// The largest labels file read (a million labels of 64 bytes).
    static let maximumLabelsFileSize = 64 << 20

    /// Refuses what is not a regular file, or is larger than `limit` bytes, before reading it.
    static func checkRegularFile(_ url: URL, limit: Int) throws(TasksError) {
        let attributes: [FileAttributeKey: Any]
        do {
            // Following symbolic links: a link to a regular file is one.
            attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        } catch {
            throw .notFound("\(url.path): the file does not exist or cannot be read.")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .invalidArgument("'\(url.path)' is not a regular file.")
        }
        if let size = attributes[.size] as? Int, size > limit {
            throw .invalidArgument("\(url.path) is \(size) bytes; at most \(limit) are read.")
        }
    }

    private static func jsonObject(at url: URL) throws(TasksError) -> [String: Any] {
        try checkRegularFile(url, limit: maximumManifestSize)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .notFound("\(url.path): the AutoML manifest cannot be read (\(error.localizedDescription)).")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .invalidArgument("\(url.path): the AutoML manifest is not valid JSON.")
        }
        guard let object = parsed as? [String: Any] else {
            throw .invalidArgument("\(url.path): the AutoML manifest must be a JSON object with modelFile, labelsFile and modelType.")
        }
        return object
    }

    private static func string(_ key: String, in object: [String: Any], manifest: String) throws(TasksError) -> String {
        guard let value = object[key] else { throw .invalidArgument("\(manifest): the key \"\(key)\" is missing.") }
        guard let text = value as? String, !(value is NSNumber) else {
            let shown = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            throw .invalidArgument("\(manifest): \"\(key)\" must be a string, not \(shown).")
        }
        return text
    }

    /// A file named by the manifest: a relative path that stays inside the manifest's folder.
    private static func file(_ key: String, in object: [String: Any], folder: URL, manifest: String) throws(TasksError) -> URL {
        let name = try string(key, in: object, manifest: manifest)
        let components = name.split(separator: "/", omittingEmptySubsequences: true)
        guard !name.isEmpty, !name.hasPrefix("/"), !components.contains(".."), !components.allSatisfy({ $0 == "." }) else {
            throw .invalidArgument("\(manifest): \"\(key)\" is \"\(name)\"; it must be a path inside the manifest's folder.")
        }
        let url = folder.appendingPathComponent(name)
        // A symbolic link inside the export must not lead out of it either.
        let realFolder = folder.resolvingSymlinksInPath().path
        guard url.resolvingSymlinksInPath().path.hasPrefix(realFolder + "/") else {
            throw .invalidArgument("\(manifest): \"\(key)\" (\(name)) leads outside the manifest's folder through a symbolic link.")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .notFound("\(manifest): \"\(key)\" names \(url.path), which does not exist or is not a file.")
        }
        return url
    }
}
