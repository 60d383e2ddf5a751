import Foundation
import TestSupport
import Testing

/// `vision-tasks models ...` and `label --remote` against a local server publishing with
/// `models index`, into a temporary cache.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelsCommandTests {
    final class Site: Sendable {
        let server: StaticModelHost
        let cache: URL
        var environment: [String: String] {
            ["VISION_TASKS_MODEL_CACHE": cache.path, "VISION_TASKS_MODEL_SOURCE": server.baseURL.absoluteString]
        }

        init() throws {
            server = try StaticModelHost()
            cache = try TestData.temporaryDirectory()
            try server.makeZip(
                "flowers.zip",
                [
                    [
                        "name": "manifest.json",
                        "text": #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
                    ],
                    ["name": "dict.txt", "text": "daisy\ndandelion\nroses\nsunflowers\ntulips\n"],
                    ["name": "model.tflite", "file": TestData.model("automl_labeler_model.tflite").path],
                ])
            try FileManager.default.copyItem(
                at: TestData.model("mobilenet_v1_0.25_224_1_metadata_1.tflite"),
                to: server.root.appendingPathComponent("mobilenet.tflite"))
        }

        deinit { try? FileManager.default.removeItem(at: cache) }
    }

    /// index -> download -> list -> path -> label --remote -> delete, and labels equal to the
    /// local export's.
    @Test func publishDownloadLabelDelete() async throws {
        let site = try Site()
        let index = try await VisionTasksTool.run(["models", "index", site.server.root.path])
        #expect(index.status == 0, "\(index)")
        #expect(index.stdoutLines.first?.hasPrefix("flowers\tversion 1\tautoml-zip\t") == true, "\(index)")
        #expect(index.stdoutLines.dropFirst().first?.hasPrefix("mobilenet\tversion 1\ttflite\t") == true, "\(index)")

        let download = try await VisionTasksTool.run(["models", "download", "flowers"], environment: site.environment)
        #expect(download.status == 0, "\(download)")
        #expect(download.diagnostics == ["downloaded flowers version 1"], "\(download)")
        let path = try await VisionTasksTool.run(["models", "path", "flowers"], environment: site.environment)
        #expect(path.stdoutLines == [download.stdoutLines.last ?? "-"], "\(path)")
        #expect(path.stdoutLines.first?.hasSuffix("/manifest.json") == true)

        let image = TestData.image("sparrow.jpg").path
        // --cache names the cache the environment names.
        let remote = try await VisionTasksTool.run(
            ["label", "--remote", "flowers", "--cache", site.cache.path, "--confidence", "0", "--format", "jsonl", image])
        let local = try await VisionTasksTool.run(
            ["label", "--manifest", path.stdoutLines.first ?? "-", "--confidence", "0", "--format", "jsonl", image])
        #expect(remote.status == 0, "\(remote)")
        #expect(remote.stdout == local.stdout)
        #expect(remote.stdout.contains("\"text\":\"daisy\"") || remote.stdout.contains("\"text\": \"daisy\""), "\(remote)")

        let list = try await VisionTasksTool.run(["models", "list"], environment: site.environment)
        #expect(list.stdoutLines.count == 1 && list.stdoutLines[0].hasPrefix("flowers\tversion 1\tautoml-zip\t"), "\(list)")
        let delete = try await VisionTasksTool.run(["models", "delete", "flowers"], environment: site.environment)
        #expect(delete.status == 0 && delete.stdoutLines == ["deleted flowers"], "\(delete)")
        let after = try await VisionTasksTool.run(["label", "--remote", "flowers", image], environment: site.environment)
        #expect(after.status == 1)
        #expect(
            after.diagnostics.first?.hasPrefix("error: FAILED_PRECONDITION: flowers: the remote model is not downloaded") == true,
            "\(after)")
    }

    /// A bundle that no download could install is not published (the index is not written), and
    /// files that are not bundles are skipped with a warning; extensions match in any case.
    @Test func indexPublishesOnlyBundlesThatInstall() async throws {
        let server = try StaticModelHost()
        let root = server.root
        try Data("a readme".utf8).write(to: root.appendingPathComponent("README.txt"))
        try FileManager.default.copyItem(
            at: TestData.model("mobilenet_v1_0.25_224_quant.tflite"), to: root.appendingPathComponent("Mobilenet.TFLITE"))
        let good = try await VisionTasksTool.run(["models", "index", root.path])
        #expect(good.status == 0, "\(good)")
        #expect(good.diagnostics == ["warning: skipped README.txt: not a .zip or .tflite bundle"], "\(good)")
        #expect(good.stdoutLines.first?.hasPrefix("Mobilenet\tversion 1\ttflite\t") == true, "\(good)")

        let index = root.appendingPathComponent("index.json")
        let published = try Data(contentsOf: index)
        // An export zipped with its folder: manifest.json is not at the zip's root.
        try server.makeZip(
            "nested.zip",
            [
                ["name": "export/manifest.json", "text": #"{"modelFile": "model.tflite", "labelsFile": "dict.txt"}"#],
                ["name": "export/dict.txt", "text": "a\nb\nc\nd\ne\n"],
            ])
        let nested = try await VisionTasksTool.run(["models", "index", root.path])
        #expect(nested.status == 1, "\(nested)")
        #expect(
            nested.diagnostics.last
                == "error: NOT_FOUND: \(root.path)/nested.zip: cannot publish it: its download would fail at step load: "
                + "bundle's manifest.json: The AutoML manifest was not found (no such file or folder).", "\(nested)")
        #expect(try Data(contentsOf: index) == published)

        try FileManager.default.removeItem(at: root.appendingPathComponent("nested.zip"))
        try Data("not a model".utf8).write(to: root.appendingPathComponent("garbage.tflite"))
        let garbage = try await VisionTasksTool.run(["models", "index", root.path])
        #expect(garbage.status == 1, "\(garbage)")
        #expect(
            garbage.diagnostics.last?.contains("garbage.tflite: cannot publish it: its download would fail at step load: ")
                == true, "\(garbage)")
        #expect(try Data(contentsOf: index) == published)
    }

    /// Re-indexing keeps the version of an unchanged file and gives a changed one the next;
    /// `models download` then fetches the new version.
    @Test func reindexingBumpsChangedModels() async throws {
        let site = try Site()
        let root = site.server.root.path
        #expect(try await VisionTasksTool.run(["models", "index", root]).status == 0)
        #expect(try await VisionTasksTool.run(["models", "download", "mobilenet"], environment: site.environment).status == 0)
        let mobilenet = site.server.root.appendingPathComponent("mobilenet.tflite")
        try FileManager.default.removeItem(at: mobilenet)
        try FileManager.default.copyItem(at: TestData.model("mobilenet_v2_1.0_224_quant.tflite"), to: mobilenet)
        let again = try await VisionTasksTool.run(["models", "index", root])
        #expect(again.stdoutLines.first?.hasPrefix("flowers\tversion 1\t") == true, "\(again)")
        #expect(again.stdoutLines.dropFirst().first?.hasPrefix("mobilenet\tversion 2\t") == true, "\(again)")
        let update = try await VisionTasksTool.run(["models", "download", "mobilenet"], environment: site.environment)
        #expect(update.status == 0, "\(update)")
        #expect(update.stdoutLines.first?.hasPrefix("mobilenet\tversion 2\t") == true, "\(update)")
        let list = try await VisionTasksTool.run(["models", "list"], environment: site.environment)
        #expect(list.stdoutLines.count == 1 && list.stdoutLines[0].hasPrefix("mobilenet\tversion 2\ttflite\t"), "\(list)")
    }

    /// A second download of an unchanged model fetches nothing and says so; after the model
    /// changes, the next one fetches the new version. stdout is the same either way.
    @Test func downloadSaysWhetherItFetched() async throws {
        let site = try Site()
        #expect(try await VisionTasksTool.run(["models", "index", site.server.root.path]).status == 0)
        let download = ["models", "download", "mobilenet"]
        let first = try await VisionTasksTool.run(download, environment: site.environment)
        #expect(first.status == 0 && first.diagnostics == ["downloaded mobilenet version 1"], "\(first)")
        let again = try await VisionTasksTool.run(download, environment: site.environment)
        #expect(again.status == 0, "\(again)")
        #expect(
            again.diagnostics == ["mobilenet version 1 is already installed and current: nothing downloaded"], "\(again)")
        #expect(again.stdout == first.stdout, "\(again)")
        #expect(site.server.requestCount("/mobilenet.tflite") == 1, "the bundle was fetched once")

        let mobilenet = site.server.root.appendingPathComponent("mobilenet.tflite")
        try FileManager.default.removeItem(at: mobilenet)
        try FileManager.default.copyItem(at: TestData.model("mobilenet_v2_1.0_224_quant.tflite"), to: mobilenet)
        #expect(try await VisionTasksTool.run(["models", "index", site.server.root.path]).status == 0)
        let update = try await VisionTasksTool.run(download, environment: site.environment)
        #expect(update.status == 0 && update.diagnostics == ["downloaded mobilenet version 2"], "\(update)")
    }

    /// A bundle published as a symbolic link (such as latest.tflite -> v3.tflite) is indexed with
    /// its target's size, which is what the server sends, and downloads; a folder named like a
    /// bundle is refused by name.
    @Test func symbolicLinksAreIndexedByTheirTarget() async throws {
        let site = try Site()
        let root = site.server.root
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("latest.tflite"), withDestinationURL: root.appendingPathComponent("mobilenet.tflite"))
        let index = try await VisionTasksTool.run(["models", "index", root.path])
        let size = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("mobilenet.tflite").path)[.size]
        let expected = try #require(index.stdoutLines.first { $0.hasPrefix("mobilenet\t") })
        #expect(
            index.stdoutLines.first { $0.hasPrefix("latest\t") } == "latest" + expected.dropFirst("mobilenet".count), "\(index)")
        #expect(expected.contains("\t\((size as? NSNumber)?.intValue ?? -1) bytes\t"), "\(index)")
        let download = try await VisionTasksTool.run(["models", "download", "latest"], environment: site.environment)
        #expect(download.status == 0, "\(download)")

        try FileManager.default.createDirectory(at: root.appendingPathComponent("folder.zip"), withIntermediateDirectories: false)
        let folder = try await VisionTasksTool.run(["models", "index", root.path])
        #expect(folder.status == 1)
        #expect(
            folder.diagnostics == [
                "error: INVALID_ARGUMENT: \(root.appendingPathComponent("folder.zip").path): cannot publish it: it is a folder; a bundle is a .zip or .tflite file."
            ], "\(folder)")
    }

    /// An index.json that does not read is not overwritten (that would restart every version at 1).
    @Test func unreadableIndexIsNotReplaced() async throws {
        let site = try Site()
        let index = site.server.root.appendingPathComponent("index.json")
        let broken = Data(#"{"formatVersion": 1, "models": {"flowers": {"file": "flowers.zip",}}}"#.utf8)
        try broken.write(to: index)
        let run = try await VisionTasksTool.run(["models", "index", site.server.root.path])
        #expect(run.status == 1, "\(run)")
        let message = try #require(run.diagnostics.first, "\(run)")
        #expect(message.hasPrefix("error: INVALID_ARGUMENT: \(index.path): the model index is not valid index.json: "), "\(run)")
        #expect(message.hasSuffix("It keeps the published versions: fix it, or remove it to start again at version 1."), "\(run)")
        #expect(try Data(contentsOf: index) == broken)
    }

    /// A cache path naming a file fails the download with a message saying so.
    @Test func cacheThatIsAFile() async throws {
        let site = try Site()
        #expect(try await VisionTasksTool.run(["models", "index", site.server.root.path]).status == 0)
        let file = site.cache.appendingPathComponent("cache-file")
        try Data("not a folder".utf8).write(to: file)
        let run = try await VisionTasksTool.run(
            ["models", "download", "mobilenet", "--cache", file.path], environment: site.environment)
        #expect(run.status == 1, "\(run)")
        let message = try #require(run.diagnostics.first, "\(run)")
        #expect(
            message.hasPrefix("error: PERMISSION_DENIED: mobilenet: download failed at step install: cannot create "), "\(run)")
        #expect(message.hasSuffix(": \(file.path) is a file, not a folder"), "\(run)")
        #expect(try Data(contentsOf: file) == Data("not a folder".utf8))
    }

    /// Usage errors: no source, a bad --sha256, --precision for an indexed model.
    @Test(arguments: [
        (["models", "download", "flowers"], "error: no model source: give --source URL or set VISION_TASKS_MODEL_SOURCE"),
        (
            ["models", "download", "flowers", "--source", "x", "--sha256", "abc"],
            "error: --sha256 expects 64 hexadecimal digits, got 'abc'"
        ),
        (
            ["models", "download", "flowers", "--source", "http://h/", "--precision", "int8"],
            "error: --precision is for efficientnet_lite0 and efficientnet_lite2 only"
        ),
        (
            ["models", "download", "../x"],
            "error: '../x': a model name uses only letters, digits, '.', '_' and '-', and does not start with '.'."
        ),
        (["models", "frobnicate"], "error: unknown subcommand 'frobnicate'"),
        (
            ["models", "download", "flowers", "--source", "file:///srv/models/"],
            "error: --source 'file:///srv/models/': a model source is an http or https URL with a host, such as https://example.com/models/"
        ),
        (
            ["models", "download", "flowers", "--source", "ftp://127.0.0.1/"],
            "error: --source 'ftp://127.0.0.1/': a model source is an http or https URL with a host, such as https://example.com/models/"
        ),
        (
            ["models", "download", "efficientnet_lite0", "--source", "http:///"],
            "error: --source 'http:///': a model source is an http or https URL with a host, such as https://example.com/models/"
        ),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let run = try await VisionTasksTool.run(arguments, environment: ["VISION_TASKS_MODEL_SOURCE": ""])
        #expect(run.status == 2, "\(run)")
        #expect(run.diagnostics.first == message, "\(run)")
    }

    /// MediaPipe's model names download from the overridable base URL; a pinned SHA-256 that
    /// differs fails without installing; a missing model is a 404 naming the URL.
    @Test func mediaPipeModelThroughTheSameDownloader() async throws {
        let site = try Site()
        let folder = site.server.root.appendingPathComponent("efficientnet_lite0/int8/latest")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestData.model("mobilenet_v1_0.25_224_quant.tflite"),
            to: folder.appendingPathComponent("efficientnet_lite0.tflite"))
        let base = site.server.baseURL.absoluteString
        let digest = try await VisionTasksTool.run(["models", "index", site.server.root.path])
        #expect(digest.status == 0)

        let wrongPin = String(repeating: "0", count: 64)
        let pinned = try await VisionTasksTool.run(
            ["models", "download", "efficientnet_lite0", "--precision", "int8", "--source", base, "--sha256", wrongPin],
            environment: site.environment)
        #expect(pinned.status == 1)
        #expect(
            pinned.diagnostics.first?.contains(
                "efficientnet_lite0_int8: download failed at step verify: the bundle's SHA-256 is ") == true, "\(pinned)")
        let none = try await VisionTasksTool.run(["models", "path", "efficientnet_lite0_int8"], environment: site.environment)
        #expect(none.status == 1)

        let ok = try await VisionTasksTool.run(
            ["models", "download", "efficientnet_lite0", "--precision", "int8"],
            environment: site.environment.merging(["VISION_TASKS_MEDIAPIPE_MODELS": base]) { $1 })
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdoutLines.first?.hasPrefix("efficientnet_lite0_int8\tversion 1\tsha256 ") == true, "\(ok)")
        let installed = try #require(ok.stdoutLines.last)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: installed))
                == Data(contentsOf: TestData.model("mobilenet_v1_0.25_224_quant.tflite")))
        let classify = try await VisionTasksTool.run(["classify", "--model", installed, TestData.image("burger.jpg").path])
        #expect(classify.status == 0, "\(classify)")

        let missing = try await VisionTasksTool.run(
            ["models", "download", "efficientnet_lite2", "--source", base], environment: site.environment)
        #expect(missing.status == 1)
        #expect(
            missing.diagnostics == [
                "error: NOT_FOUND: efficientnet_lite2_float32: download failed at step transfer: HTTP status 404 (Not Found) for "
                    + "\(base)efficientnet_lite2/float32/latest/efficientnet_lite2.tflite"
            ], "\(missing)")
    }

    /// A MediaPipe model cut short (the server drops the connection mid-body), or sent without
    /// Content-Length, replaces nothing.
    @Test func truncatedMediaPipeModelReplacesNothing() async throws {
        let site = try Site()
        let folder = site.server.root.appendingPathComponent("efficientnet_lite2/float32/latest")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestData.model("mobilenet_v1_0.25_224_quant.tflite"),
            to: folder.appendingPathComponent("efficientnet_lite2.tflite"))
        let environment = site.environment.merging(["VISION_TASKS_MEDIAPIPE_MODELS": site.server.baseURL.absoluteString]) { $1 }
        let first = try await VisionTasksTool.run(["models", "download", "efficientnet_lite2"], environment: environment)
        #expect(first.status == 0, "\(first)")
        try site.server.inject("drop", at: "/efficientnet_lite2/float32/latest/efficientnet_lite2.tflite")
        let second = try await VisionTasksTool.run(["models", "download", "efficientnet_lite2"], environment: environment)
        #expect(second.status == 1)
        #expect(second.diagnostics.first?.contains("step transfer: the connection closed after ") == true, "\(second)")
        let path = try await VisionTasksTool.run(["models", "path", "efficientnet_lite2_float32"], environment: environment)
        #expect(path.stdoutLines == [first.stdoutLines.last ?? "-"])

        // Complete, but without Content-Length nothing shows it is: refused.
        try site.server.inject("no-length", at: "/efficientnet_lite2/float32/latest/efficientnet_lite2.tflite")
        let third = try await VisionTasksTool.run(["models", "download", "efficientnet_lite2"], environment: environment)
        #expect(third.status == 1, "\(third)")
        #expect(
            third.diagnostics == [
                "error: DATA_LOSS: efficientnet_lite2_float32: download failed at step verify: the server sent no "
                    + "Content-Length, so the download cannot be checked to be complete."
            ], "\(third)")
        let still = try await VisionTasksTool.run(["models", "path", "efficientnet_lite2_float32"], environment: environment)
        #expect(still.stdoutLines == [first.stdoutLines.last ?? "-"])
    }
}
