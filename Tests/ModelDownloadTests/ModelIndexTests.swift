import FileSystem
import Foundation
import ModelCache
import ModelDownloads
import TasksCommon
import TestSupport
import Testing

struct ModelIndexTests {
    static let digest = String(repeating: "ab", count: 32)

    private func index(_ models: String) -> String { #"{"formatVersion": 1, "models": {\#(models)}}"# }
    private func entry(
        file: String = "m.zip", version: Int = 1, sha256: String = digest, size: Int = 10, kind: String = "automl-zip"
    )
        -> String
    {
        #"{"file": "\#(file)", "version": \#(version), "sha256": "\#(sha256)", "size": \#(size), "kind": "\#(kind)"}"#
    }

    /// The same key in different objects, or in strings, is not a repeated model.
    @Test func keysRepeatedElsewhereAreNotDuplicates() throws {
        let json = index(#""m": \#(entry(file: "m\\\"{,.zip")), "n": \#(entry(file: "n.zip"))"#)
        let parsed = try ModelIndex(json: Data(json.utf8), subject: .buffer("index"))
        #expect(parsed.models.keys.sorted() == ["m", "n"])
    }

    @Test func parsesAndWritesTheDocumentedFormat() throws {
        let parsed = try ModelIndex(json: Data(index(#""flowers": \#(entry())"#).utf8), subject: .buffer("index"))
        #expect(
            parsed.models == [
                "flowers": ModelIndex.Entry(file: "m.zip", version: 1, sha256: Self.digest, size: 10, kind: .automlZip)
            ])
        #expect(try ModelIndex(json: parsed.jsonData(), subject: .buffer("again")) == parsed)
    }

    @Test(arguments: [
        ("not JSON", "<html>", "the model index is not valid index.json: not JSON"),
        ("format 2", #"{"formatVersion": 2, "models": {}}"#, "the model index has formatVersion 2; this version reads 1."),
        ("no models", #"{"formatVersion": 1}"#, #"the model index is not valid index.json: missing "models" at the top level"#),
        (
            "bad kind",
            #"{"formatVersion": 1, "models": {"m": {"file": "m", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "onnx"}}}"#,
            "the model index is not valid index.json"
        ),
        (
            "version 0",
            #"{"formatVersion": 1, "models": {"m": {"file": "m.zip", "version": 0, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"model "m" has version 0; it must be positive."#
        ),
        (
            "short sha",
            #"{"formatVersion": 1, "models": {"m": {"file": "m.zip", "version": 1, "sha256": "abc", "size": 1, "kind": "tflite"}}}"#,
            #"model "m" has sha256 "abc"; it must be 64 lowercase hexadecimal digits."#
        ),
        (
            "parent file",
            #"{"formatVersion": 1, "models": {"m": {"file": "../m.zip", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"model "m" has file "../m.zip"; it must be a relative path without '..' or a scheme."#
        ),
        (
            "model listed twice",
            #"{"formatVersion": 1, "models": {"m": {"file": "a.zip", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}, "n": {"m": 1, "file": "b.zip", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}, "\u006d": {"file": "c.zip", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"the model index lists the model "m" more than once."#
        ),
        (
            "size 1e30",
            #"{"formatVersion": 1, "models": {"m": {"file": "m.zip", "version": 1, "sha256": "\#(digest)", "size": 1e30, "kind": "tflite"}}}"#,
            #"the model index is not valid index.json: a number does not fit its field ("version" and "size" are integers up to 2^63 - 1)"#
        ),
        (
            "fractional version",
            #"{"formatVersion": 1, "models": {"m": {"file": "m.zip", "version": 1.5, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"the model index is not valid index.json: a number does not fit its field ("version" and "size" are integers up to 2^63 - 1)"#
        ),
        (
            "file scheme",
            #"{"formatVersion": 1, "models": {"m": {"file": "file:/etc/passwd", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"model "m" has file "file:/etc/passwd"; it must be a relative path without '..' or a scheme."#
        ),
        (
            "http scheme without host",
            #"{"formatVersion": 1, "models": {"m": {"file": "http:m.zip", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"model "m" has file "http:m.zip"; it must be a relative path without '..' or a scheme."#
        ),
        (
            "encoded parent",
            #"{"formatVersion": 1, "models": {"m": {"file": "a/%2e%2e/%2E%2E/m.zip", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"model "m" has file "a/%2e%2e/%2E%2E/m.zip"; it must be a relative path without '..' or a scheme."#
        ),
        (
            "dot name",
            #"{"formatVersion": 1, "models": {".m": {"file": "m.zip", "version": 1, "sha256": "\#(digest)", "size": 1, "kind": "tflite"}}}"#,
            #"the model index names a model ".m": a model name uses only letters"#
        ),
    ])
    func rejectsBadIndexes(id: String, json: String, fragment: String) {
        expectTasksError(.invalidArgumentError, containing: ["index.json: " + fragment], context: id) {
            try ModelIndex(json: Data(json.utf8), subject: .file("index.json"))
        }
    }

    /// FIPS 180-2's test vectors.
    @Test func sha256MatchesTheStandardsVectors() {
        let abc = SHA256Hasher()
        abc.update(Data("abc".utf8))
        #expect(abc.finalize() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let empty = SHA256Hasher()
        #expect(empty.finalize() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let pieces = SHA256Hasher()
        for piece in ["abcdbcdecdefdefgefghfghighij", "hijkijkljklmklmnlmnomnopnopq"] { pieces.update(Data(piece.utf8)) }
        #expect(pieces.finalize() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func cacheDirectoryFollowsTheEnvironment() {
        #expect(DownloadSettings.defaultCacheDirectory(["VISION_TASKS_MODEL_CACHE": "/c"]).path == "/c")
        #expect(DownloadSettings.defaultCacheDirectory(["XDG_CACHE_HOME": "/x"]).path == "/x/swift-vision-tasks/models")
        #expect(
            DownloadSettings.defaultCacheDirectory(["XDG_CACHE_HOME": "relative", "HOME": "/h"]).path
                == "/h/.cache/swift-vision-tasks/models")
        // Without a usable $HOME, the account's home directory.
        let account = FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/swift-vision-tasks/models"
        #expect(DownloadSettings.defaultCacheDirectory([:]).path == account)
        #expect(DownloadSettings.defaultCacheDirectory(["HOME": "relative"]).path == account)
        #expect(DownloadSettings.sourceURL(["VISION_TASKS_MODEL_SOURCE": "http://h:1/m/"])?.absoluteString == "http://h:1/m/")
        #expect(DownloadSettings.sourceURL([:]) == nil)
    }
}
