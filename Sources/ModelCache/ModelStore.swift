import FileSystem
import Foundation
import Glibc
import TasksCommon

/// A model installed in the cache.
package struct InstalledModel: Sendable, Equatable, Codable {
    /// The name it was published under.
    package let name: String
    /// Its version in the index (1 for a model downloaded from a plain URL).
    package let version: Int
    /// The SHA-256 of the downloaded bundle.
    package let sha256: String
    /// How the bundle was packed.
    package let kind: ModelIndex.Kind
    /// The folder holding it: `manifest.json` and the rest for an AutoML zip, `model.tflite` for a
    /// single model.
    package let directory: URL

    package init(name: String, version: Int, sha256: String, kind: ModelIndex.Kind, directory: URL) {
        (self.name, self.version, self.sha256, self.kind, self.directory) = (name, version, sha256, kind, directory)
    }

    /// The AutoML manifest (kind automl-zip).
    package var manifestURL: URL { directory.appendingPathComponent("manifest.json") }
    /// The model file (kind tflite).
    package var modelURL: URL { directory.appendingPathComponent(ModelStore.modelFileName) }
}

/// The model cache on disk:
///
/// ```
/// <root>/<name>/current                  the installed version (JSON), replaced by rename(2)
/// <root>/<name>/v<version>-<sha12>-<id>/ one folder per installed version
/// <root>/<name>/.staging-<id>/           a download in progress: removed when it ends
/// ```
///
/// Installing flushes a complete version folder to the disk, renames it into place and then
/// replaces `current` (`AtomicWrite`), so a reader, a killed process or a power cut sees the
/// old version or the new one, never a mix. The previous version's folder is kept (a labeler being created from it can finish
/// reading); older ones are removed. Downloads and installs of one model take turns, across
/// processes too, under an exclusive `flock(2)` on `<root>/<name>/` (`ModelLock`). The lock
/// decides what is stale: whoever holds it owns every temporary in the folder, so temporaries
/// found by a holder were left by a process that died (SIGKILL) and are removed.
package struct ModelStore: Sendable {
    /// The cache's root folder.
    package let root: URL
    /// The file name of a single-model bundle once installed.
    package static let modelFileName = "model.tflite"
    private static let pointerName = "current"
    private static let pointerKind = FileKind(noun: "installed-version pointer", maximumByteCount: 1 << 20)

    /// The pointer's JSON: the model's fields, keys sorted.
    private static func pointerBytes(_ model: InstalledModel) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and a URL: nothing JSONEncoder can fail on.
        return (try? encoder.encode(model)) ?? Data("{}".utf8)
    }

    package init(root: URL) { self.root = root }

    /// The folder of the model called `name`.
    package func folder(_ name: String) -> URL { root.appendingPathComponent(name, isDirectory: true) }

    /// The installed version of `name`, or nil when none is (or its pointer is unreadable).
    package func installed(_ name: String) -> InstalledModel? {
        let pointer = folder(name).appendingPathComponent(Self.pointerName)
        guard let bytes = try? FileReader.contents(atPath: pointer.path, as: Self.pointerKind),
            var model = try? JSONDecoder().decode(InstalledModel.self, from: Data(bytes))
        else { return nil }
        // The pointer stores the folder's name; the cache may have moved since.
        model = InstalledModel(
            name: model.name, version: model.version, sha256: model.sha256, kind: model.kind,
            directory: folder(name).appendingPathComponent(model.directory.lastPathComponent, isDirectory: true))
        return FileManager.default.fileExists(atPath: model.directory.path) ? model : nil
    }

    /// Every installed model, by name.
    package func list() -> [InstalledModel] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().compactMap { ModelName.problem($0) == nil ? installed($0) : nil }
    }

    /// A new, empty staging folder for a download of `name`, whose lock the caller holds.
    package func makeStagingFolder(_ name: String, holding lock: ModelLock) throws(TasksError) -> URL {
        let staging = folder(name).appendingPathComponent(".staging-\(UUID().uuidString)", isDirectory: true)
        try Self.createFolder(staging, model: name)
        return staging
    }

    /// Creates `url` and its ancestors.
    /// - Throws: permissionDenied at step install, naming a file in the way.
    private static func createFolder(_ url: URL, model name: String) throws(TasksError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .download(
                .permissionDeniedError, step: .install, model: name,
                "cannot create \(url.path): \(obstacle(to: url) ?? error.localizedDescription)")
        }
    }

    /// Moves the complete folder `unpacked` into place as the current version of `name`, whose
    /// lock the caller holds (without it, one install's clean-up could remove the folder another
    /// has moved into place but not yet pointed `current` at).
    /// - Throws: `TasksError` of step install when a rename fails; the previous version is then
    ///   still current.
    package func install(
        _ unpacked: URL, name: String, version: Int, sha256: String, kind: ModelIndex.Kind, holding lock: ModelLock
    ) throws(TasksError) -> InstalledModel {
        let previous = installed(name)
        let id = UUID().uuidString.prefix(8).lowercased()
        let directory = folder(name).appendingPathComponent("v\(version)-\(sha256.prefix(12))-\(id)", isDirectory: true)
        let model = InstalledModel(name: name, version: version, sha256: sha256, kind: kind, directory: directory)
        let pointer = folder(name).appendingPathComponent(Self.pointerName)
        do throws(Errno) {
            // Flushed before the rename, so that a power cut after "installed" cannot leave
            // empty files behind the new name.
            try FileTree.syncTree(FileSystemPath(unpacked.path))
            try FileTree.rename(FileSystemPath(unpacked.path), to: FileSystemPath(directory.path))
        } catch {
            throw .download(.internalError, step: .install, model: name, "cannot install in \(folder(name).path): \(error)")
        }
        do throws(TasksError) {
            try AtomicWrite.write(Self.pointerBytes(model), to: FileSystemPath(pointer.path), kind: Self.pointerKind)
        } catch {
            FileTree.removeTree(FileSystemPath(directory.path))
            throw .download(
                .internalError, step: .install, model: name, "cannot install in \(folder(name).path): \(error.message)")
        }
        removeVersions(of: name, keeping: [directory.lastPathComponent, previous?.directory.lastPathComponent].compactMap { $0 })
        return model
    }

    /// Removes `name` from the cache; true when something was installed. Takes the model's lock
    /// first, waiting while a download or install holds it (`whileBusy` is called once when it
    /// must wait): a folder removed under a running download would let the next download lock a
    /// new folder and run beside it, and the next `models` command take the running download's
    /// staging folder for a dead one's.
    /// - Throws: permissionDenied when the folder cannot be removed; `lock`'s errors.
    package func delete(_ name: String, whileBusy: () -> Void = {}) throws(TasksError) -> Bool {
        guard FileManager.default.fileExists(atPath: folder(name).path) else { return false }
        let lock = try self.lock(name, whileBusy: whileBusy)
        // Held until the folder is gone; waiting downloads then find it replaced (see `tryLock`).
        defer { withExtendedLifetime(lock) {} }
        do {
            try FileManager.default.removeItem(at: folder(name))
        } catch {
            throw TasksError(.permissionDeniedError, "cannot delete \(folder(name).path): \(error)", subject: .remoteModel(name))
        }
        return true
    }

    /// Takes the exclusive lock of `name`'s folder, creating the folder, waiting while another
    /// download or install holds it. `whileBusy` is called once when it must wait; `isCancelled`
    /// is polled while it waits.
    /// - Throws: cancelled when `isCancelled` turns true; permissionDenied when the folder cannot
    ///   be created; internal when it cannot be locked.
    package func lock(
        _ name: String, whileBusy: () -> Void = {}, isCancelled: () -> Bool = { false }
    ) throws(TasksError) -> ModelLock {
        var announced = false
        while true {
            try Self.createFolder(folder(name), model: name)
            if let lock = try tryLock(name) { return lock }
            if isCancelled() {
                throw .download(
                    .cancelledError, step: .index, model: name, "cancelled while waiting for another download of the model.")
            }
            if !announced {
                whileBusy()
                announced = true
            }
            // flock has no timed wait; a blocking one could not notice the cancellation.
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The lock of `name`'s folder when no one holds it, else nil (also when the folder is gone).
    /// - Throws: internal when the folder cannot be opened or locked for another reason.
    package func tryLock(_ name: String) throws(TasksError) -> ModelLock? {
        let path = folder(name).path
        let folder: FileDescriptor
        do throws(Errno) {
            folder = try FileDescriptor.open(FileSystemPath(path), O_RDONLY | O_DIRECTORY)
        } catch {
            if error == .noSuchFile { return nil }
            throw .download(.internalError, step: .install, model: name, "cannot open \(path) to lock it: \(error)")
        }
        do throws(Errno) {
            guard try folder.tryLockExclusively() else { return nil }
        } catch {
            throw .download(.internalError, step: .install, model: name, "cannot lock \(path): \(error)")
        }
        let lock = ModelLock(folder: folder)
        // A holder may have removed the folder (a failed first download, a delete) before this
        // lock was granted: a lock on a removed folder guards nothing.
        return lock.isOnFolder(atPath: path) ? lock : nil
    }

    /// Removes the temporaries (staging folders, pointers being written) of `name`: with its lock
    /// held, no live process owns any.
    package func removeTemporaries(of name: String, holding lock: ModelLock) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder(name).path)) ?? []
        // `.current.staging-…` (AtomicWrite's) and `.current-…` (earlier versions').
        for entry in entries where entry.hasPrefix(".staging-") || entry.hasPrefix(".\(Self.pointerName)") {
            try? FileManager.default.removeItem(at: folder(name).appendingPathComponent(entry))
        }
    }

    /// Removes the temporaries of every model that no download or install holds now: those left
    /// by processes that died.
    package func removeStaleTemporaries() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where ModelName.problem(name) == nil {
            if let lock = try? tryLock(name) { removeTemporaries(of: name, holding: lock) }
        }
    }

    /// The file in the way of creating the folder `url`: the nearest existing ancestor when it
    /// is not a folder (such as a cache path naming a file).
    private static func obstacle(to url: URL) -> String? {
        var ancestor = url.deletingLastPathComponent()
        while ancestor.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
                return isFolder.boolValue ? nil : "\(ancestor.path) is a file, not a folder"
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        return nil
    }

    private func removeVersions(of name: String, keeping kept: [String]) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder(name).path)) ?? []
        for entry in entries where entry.hasPrefix("v") && !kept.contains(entry) {
            try? FileManager.default.removeItem(at: folder(name).appendingPathComponent(entry))
        }
    }
}
