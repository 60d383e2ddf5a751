import Archives
import Foundation
import ModelCache
import TasksCommon

/// The steps after a bundle's transfer that decide whether it installs: unpacking and the load
/// check. Downloads run them on the file they received; `models index` runs them on each local
/// bundle, so that it never publishes one that no client could install.
package enum BundleUnpacking {
    /// Why a bundle does not install: the step that refused it, its error code and reason.
    package struct Failure: Error {
        package let step: DownloadStep
        package let code: TasksErrorCode
        package let reason: String
    }

    /// Puts `bundle`'s files into `folder` (which exists and is empty): a zip's entries, or the
    /// single model as `model.tflite`, moved there (`move`) or linked to (a check leaves the
    /// bundle where it is).
    /// - Throws: `Failure` at step unpack: an unsafe or unreadable zip (see `ZipUnpacker`), more
    ///   than `sizeLimit` bytes unpacked, or a file that cannot be placed.
    package static func place(
        _ bundle: URL, kind: ModelIndex.Kind, into folder: URL, move: Bool, sizeLimit: Int64
    ) throws(Failure) {
        guard kind == .automlZip else {
            let model = folder.appendingPathComponent(ModelStore.modelFileName)
            do {
                if move {
                    try FileManager.default.moveItem(at: bundle, to: model)
                } else {
                    try FileManager.default.createSymbolicLink(at: model, withDestinationURL: bundle.absoluteURL)
                }
            } catch {
                throw Failure(step: .unpack, code: .internalError, reason: "cannot place the model in \(folder.path): \(error)")
            }
            return
        }
        do throws(ZipUnpacker.Refusal) {
            try ZipUnpacker.unpack(bundle, into: folder, sizeLimit: sizeLimit)
        } catch {
            throw Failure(step: .unpack, code: error.code, reason: error.reason)
        }
    }

    /// Runs `loadCheck` on `candidate`.
    /// - Throws: `Failure` at step load with the loader's error; paths inside the candidate's
    ///   folder (gone when the user reads the message) are named as the bundle's files.
    package static func check(_ candidate: InstalledModel, with loadCheck: ModelDownloader.LoadCheck) throws(Failure) {
        do throws(TasksError) {
            try loadCheck(candidate)
        } catch {
            let reason = error.message.replacingOccurrences(of: candidate.directory.path + "/", with: "bundle's ")
            throw Failure(step: .load, code: error.code, reason: reason)
        }
    }

    /// Whether the bundle at `bundle` would install as `name`: placed in a temporary folder and
    /// load-checked, as a download does after its transfer. The bundle is left as it is.
    /// - Throws: `Failure` naming the step that refused it.
    package static func checkInstalls(
        _ bundle: URL, kind: ModelIndex.Kind, name: String, sizeLimit: Int64, loadCheck: ModelDownloader.LoadCheck
    ) throws(Failure) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("vision-tasks-bundle-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch {
            throw Failure(step: .unpack, code: .internalError, reason: "cannot create \(folder.path): \(error)")
        }
        try place(bundle, kind: kind, into: folder, move: false, sizeLimit: sizeLimit)
        try check(InstalledModel(name: name, version: 1, sha256: "", kind: kind, directory: folder), with: loadCheck)
    }
}
