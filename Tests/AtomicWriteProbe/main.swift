import FileSystem
import Foundation
import ModelCache
import ModelDownloads
import TFLiteMetadata
import TasksCommon
// The writer `AtomicWriteKillTests` kills: one of the product's four durable writers, run over
// and over on one target in a work folder, alternating two versions, so that a kill at any
// moment lands inside some write. Prints "ready" once its setup is done. Never ends by itself.
//
//   AtomicWriteProbe metadata|cache|install|export WORK_FOLDER BASE_MODEL
import TrainingPipeline

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: AtomicWriteProbe metadata|cache|install|export WORK BASE\n".utf8))
    exit(2)
}
let work = URL(fileURLWithPath: arguments[2], isDirectory: true)
let base = arguments[3]

/// Runs `write(version)` for versions 0, 1, 0, 1, ... forever; exits 1 on the first error.
func loop(_ write: (Int) throws -> Void) -> Never {
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    var version = 0
    while true {
        do {
            try write(version)
        } catch {
            FileHandle.standardError.write(Data("AtomicWriteProbe: \(error)\n".utf8))
            exit(1)
        }
        version = 1 - version
    }
}

switch arguments[1] {
case "metadata":
    let output = work.appendingPathComponent("model.tflite").path
    loop { version in _ = try ModelMetadataWriter.write(modelAt: base, to: output, metadata: ProbeVersions.metadata(version)) }
case "cache":
    let cache = FeatureCache(root: work, identity: "base", dimension: ProbeVersions.featureCount)
    loop { version in cache.store(ProbeVersions.features(version), digest: ProbeVersions.digest) }
case "install":
    let store = ModelStore(root: work)
    loop { version in
        let lock = try store.lock(ProbeVersions.modelName)
        let staging = try store.makeStagingFolder(ProbeVersions.modelName, holding: lock)
        try Data(ProbeVersions.modelBytes(version)).write(to: staging.appendingPathComponent(ModelStore.modelFileName))
        _ = try store.install(
            staging, name: ProbeVersions.modelName, version: version + 1, sha256: ProbeVersions.sha256(version), kind: .tflite,
            holding: lock)
    }
case "export":
    let classifier = try ProbeVersions.classifier(base: base)
    var serial = 0
    loop { _ in
        serial += 1
        try ClassifierExport.write(classifier, to: work.appendingPathComponent("export-\(getpid())-\(serial)"), quantize: false)
    }
default:
    FileHandle.standardError.write(Data("AtomicWriteProbe: unknown writer \(arguments[1])\n".utf8))
    exit(2)
}
