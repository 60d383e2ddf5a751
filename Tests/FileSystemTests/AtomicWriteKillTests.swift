import AtomicWriteProbe
import FileSystem
import Foundation
import ModelCache
import ModelDownloads
import TFLiteMetadata
import TestSupport
import Testing
import TrainingPipeline

/// SIGKILL at random moments of the product's four durable writers (a metadata write, a
/// feature-cache store, a model install, an export), 250 kills each: after every kill the
/// target is the old file or the whole new one (`AtomicWrite`).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct AtomicWriteKillTests {
    static let killsPerWriter = 250
    static let base = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path

    enum Writer: String, CaseIterable { case metadata, cache, install, export }

    @Test(arguments: Writer.allCases)
    func aKilledWriterLeavesTheOldFileOrTheWholeNewOne(writer: Writer) async throws {
        let work = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let check = try Self.prepare(writer, in: work)
        var stagingLeft: Set<String> = []
        for _ in 0..<Self.killsPerWriter {
            let exit = try await Self.runAndKill(writer, in: work)
            #expect(exit == nil, "the probe ended by itself: \(exit ?? "")")
            if exit != nil { return }
            try check()
            stagingLeft.formUnion(Self.stagingFiles(under: work))
        }
        // Staging files left behind are kills that landed inside a write.
        print("\(writer): \(Self.killsPerWriter) kills, \(stagingLeft.count) of them inside a write (a staging file left)")
    }

    /// Puts the old version in place and returns the check of the target.
    private static func prepare(_ writer: Writer, in work: URL) throws -> () throws -> Void {
        switch writer {
        case .metadata:
            let original = try Data(contentsOf: URL(fileURLWithPath: base))
            let target = work.appendingPathComponent("model.tflite")
            try original.write(to: target)
            let allowed =
                try [original]
                + (0...1).map { try ModelMetadataWriter.write(model: original, metadata: ProbeVersions.metadata($0)).model }
            return {
                let found = try Data(contentsOf: target)
                #expect(allowed.contains(found), "model.tflite is \(found.count) bytes, none of the versions")
            }
        case .cache:
            let cache = FeatureCache(root: work, identity: "base", dimension: ProbeVersions.featureCount)
            cache.store(ProbeVersions.features(0), digest: ProbeVersions.digest)
            return {
                let found = cache.features(digest: ProbeVersions.digest)
                #expect(found == ProbeVersions.features(0) || found == ProbeVersions.features(1), "the entry is torn or gone")
            }
        case .install:
            let store = ModelStore(root: work)
            return { try Self.checkInstalled(store) }
        case .export:
            let expected = try ClassifierExport.model(ProbeVersions.classifier(base: base), quantized: false)
            return { try Self.checkExports(in: work, model: expected) }
        }
    }

    private static func checkInstalled(_ store: ModelStore) throws {
        // Before the first install completes nothing is installed; after, always a whole version.
        guard let model = store.installed(ProbeVersions.modelName) else {
            #expect(
                !FileManager.default.fileExists(
                    atPath: store.folder(ProbeVersions.modelName).appendingPathComponent("current").path))
            return
        }
        let version = model.version - 1
        #expect(model.sha256 == ProbeVersions.sha256(version))
        let bytes = try Data(contentsOf: model.modelURL)
        #expect(bytes == Data(ProbeVersions.modelBytes(version)), "model.tflite of version \(model.version) is torn")
    }

    /// Every export folder (not a hidden staging one) is complete; each checked one is removed.
    private static func checkExports(in work: URL, model: Data) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: work.path) where !name.hasPrefix(".") {
            let folder = work.appendingPathComponent(name)
            #expect(try Data(contentsOf: folder.appendingPathComponent("model.tflite")) == model, "\(name)/model.tflite")
            #expect(try Data(contentsOf: folder.appendingPathComponent("automl/model.tflite")) == model, "\(name)/automl")
            #expect(try String(contentsOf: folder.appendingPathComponent("automl/dict.txt"), encoding: .utf8) == "a\nb\n")
            let remote = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("remote").path)
            #expect(remote.sorted() == ["index.json", "probe.zip"], "\(name)/remote")
            try FileManager.default.removeItem(at: folder)
        }
    }

    private static func stagingFiles(under work: URL) -> [String] {
        let all = FileManager.default.enumerator(atPath: work.path)?.allObjects as? [String] ?? []
        return all.filter { ($0 as NSString).lastPathComponent.contains(".staging-") }
    }

    /// Starts the probe, waits for its "ready", kills it 0-30 ms later. Returns nil when it was
    /// killed, else what it printed on ending by itself.
    private static func runAndKill(_ writer: Writer, in work: URL) async throws -> String? {
        let probe = Process()
        probe.executableURL = probeExecutable
        probe.arguments = [writer.rawValue, work.path, base]
        let output = Pipe()
        let errors = Pipe()
        probe.standardOutput = output
        probe.standardError = errors
        try probe.run()
        let ready = await Waiting.onOwnThread { output.fileHandleForReading.readData(ofLength: 6) }
        if ready == Data("ready\n".utf8) {
            // The random moment of the kill, not a wait for anything: the writer loops until then.
            usleep(UInt32.random(in: 0..<30_000))
            kill(probe.processIdentifier, SIGKILL)
        }
        await Waiting.onOwnThread { probe.waitUntilExit() }
        guard probe.terminationReason == .uncaughtSignal, probe.terminationStatus == SIGKILL else {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return "status \(probe.terminationStatus): \(text)"
        }
        return nil
    }

    /// `AtomicWriteProbe`, beside the test bundle.
    private static let probeExecutable: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        while folder.pathExtension == "xctest"
            || !FileManager.default.fileExists(atPath: folder.appendingPathComponent("AtomicWriteProbe").path),
            folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("AtomicWriteProbe")
    }()
}
