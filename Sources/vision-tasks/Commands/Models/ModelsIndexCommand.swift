import FileSystem
import Foundation
import ImageLabeling
import ModelCache
import ModelDownloads
import TasksCommon

/// `vision-tasks models index DIR`: writes `DIR/index.json` for the bundles in DIR.
struct ModelsIndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models index",
        abstract: "Write DIR/index.json for the model bundles in DIR, to serve DIR as a model source.",
        usage: "vision-tasks models index DIR",
        discussion: """
            Lists every NAME.zip (an AutoML export zipped: manifest.json, labels file and model at
            the zip's root; kind automl-zip) and NAME.tflite (kind tflite) in DIR under NAME, with
            its size and SHA-256, after checking that it installs as a download would (unpacked
            safely, loading as a labeler); other files are skipped with a warning. A model already in DIR/index.json keeps its version when its
            file is unchanged and gets the next version when it changed; a new one gets version 1.
            An existing DIR/index.json that cannot be read is an error (remove it to start again).
            Then serve DIR with any static HTTP server (`python3 -m http.server -d DIR`).
            """,
        epilogue: "EXIT STATUS: 0 when index.json was written, 1 when it could not be, 2 for a usage error.")

    static let optionTable: [OptionDefinition] = []

    let folder: URL

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1, let folder = parsed.positionals.first?.text else {
            throw UsageError("give one folder, got \(parsed.positionals.count) arguments")
        }
        self.folder = URL(fileURLWithPath: folder, isDirectory: true)
    }

    /// Writes the folder's index.
    /// - Returns: the index written.
    /// - Throws: `TasksError` as the command reports it.
    private func writeIndex() throws(TasksError) -> ModelIndex {
        let index = try makeIndex()
        let target = folder.appendingPathComponent(ModelIndex.fileName)
        try AtomicWrite.write(index.jsonData(), to: FileSystemPath(target.path), kind: ModelIndex.fileKind)
        return index
    }

    func run() throws(UsageError) -> Int32 {
        do throws(TasksError) {
            let index = try writeIndex()
            let target = folder.appendingPathComponent(ModelIndex.fileName)
            for (name, entry) in index.models.sorted(by: { $0.key < $1.key }) {
                print("\(name)\tversion \(entry.version)\t\(entry.kind.rawValue)\t\(entry.size) bytes\t\(entry.sha256)")
            }
            print("wrote \(target.path)")
            return 0
        } catch {
            StandardStreams.reportError(error)
            return 1
        }
    }

    private func makeIndex() throws(TasksError) -> ModelIndex {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw .notFound("cannot list the folder: \(error.localizedDescription)", subject: .file(folder.path))
        }
        let previous = try self.previous()
        var models: [String: ModelIndex.Entry] = [:]
        for file in files {
            let url = folder.appendingPathComponent(file)
            let kind: ModelIndex.Kind
            switch url.pathExtension.lowercased() {
            case "zip": kind = .automlZip
            case "tflite": kind = .tflite
            default:
                if file != ModelIndex.fileName {
                    StandardStreams.warn("warning: skipped \(TableText.escaped(file)): not a .zip or .tflite bundle")
                }
                continue
            }
            let name = url.deletingPathExtension().lastPathComponent
            if let problem = ModelName.problem(name) {
                throw .invalidArgument("cannot publish it: \(problem)", subject: .file(url.path))
            }
            guard models[name] == nil else {
                throw .invalidArgument("\(name).zip and \(name).tflite would both be \"\(name)\".", subject: .file(folder.path))
            }
            var entry = try Self.entry(file: file, url: url, kind: kind)
            try Self.checkInstalls(url, kind: kind, name: name)
            if let old = previous?.models[name] {
                entry.version = old.sha256 == entry.sha256 ? old.version : old.version + 1
            }
            models[name] = entry
        }
        return ModelIndex(models: models)
    }

    /// The entry of the file at `url`; a symbolic link is described by its target, which is what
    /// a static server sends.
    private static func entry(file: String, url: URL, kind: ModelIndex.Kind) throws(TasksError) -> ModelIndex.Entry {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw .invalidArgument(
                "cannot publish it: it is a folder; a bundle is a .zip or .tflite file.", subject: .file(url.path))
        }
        do {
            let digest = try SHA256Hasher.digest(ofFileAt: url)
            return ModelIndex.Entry(file: file, version: 1, sha256: digest.sha256, size: digest.byteCount, kind: kind)
        } catch {
            throw .invalidArgument("cannot read it: \(error.localizedDescription)", subject: .file(url.path))
        }
    }

    /// A bundle that no client could install (a zip that is unsafe or holds no manifest at its
    /// root, a model that does not load as a labeler) is not published.
    private static func checkInstalls(_ url: URL, kind: ModelIndex.Kind, name: String) throws(TasksError) {
        let loadCheck: ModelDownloader.LoadCheck = { candidate throws(TasksError) in try ModelManager.loadCheck(candidate) }
        do throws(BundleUnpacking.Failure) {
            try BundleUnpacking.checkInstalls(
                url, kind: kind, name: name, sizeLimit: DownloadSettings.defaultUnpackedSizeLimit, loadCheck: loadCheck)
        } catch {
            throw TasksError(
                error.code, "cannot publish it: its download would fail at step \(error.step.rawValue): \(error.reason)",
                subject: .file(url.path))
        }
    }

    /// The index already in the folder, or nil when there is none.
    /// - Throws: the reading or parsing error of an index that exists: rewriting it would restart
    ///   every version at 1, so clients would not see the next change as newer.
    private func previous() throws(TasksError) -> ModelIndex? {
        let url = folder.appendingPathComponent(ModelIndex.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do throws(TasksError) {
            let bytes = try FileReader.contents(atPath: url.path, as: ModelIndex.fileKind)
            return try ModelIndex(json: Data(bytes), subject: .file(url.path))
        } catch {
            throw TasksError(
                error.code, "\(error.reason) It keeps the published versions: fix it, or remove it to start again at version 1.",
                subject: .file(url.path))
        }
    }
}
