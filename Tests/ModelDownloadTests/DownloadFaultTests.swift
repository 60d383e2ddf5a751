import Foundation
import ImageLabeling
import ModelDownloads
import TasksCommon
import TestSupport
import Testing

/// A broken version 2 (or a broken server), published after version 1 is installed.
enum DownloadFault: String, CaseIterable, Sendable {
    case serverDown, notFound, serverError, droppedMidBody, stall, wrongSHA256, truncatedZip
    case parentEntry, absoluteEntry, symlinkEntry, duplicateEntry, zipBomb, corruptModel, indexNotJSON

    /// The error code and the message fragment the failure notification must carry.
    var expected: (code: TasksErrorCode, fragment: String) {
        switch self {
        case .serverDown: (.unavailableError, "step index: cannot connect")
        case .notFound: (.notFoundError, "step transfer: HTTP status 404")
        case .serverError: (.unavailableError, "step transfer: HTTP status 500")
        case .droppedMidBody: (.unavailableError, "step transfer: the connection closed after")
        case .stall: (.deadlineExceededError, "step transfer: no data from")
        case .wrongSHA256: (.dataLossError, "step verify: the bundle's SHA-256 is")
        case .truncatedZip: (.dataLossError, "step unpack: the bundle is not a readable zip")
        case .parentEntry: (.invalidArgumentError, #"step unpack: the bundle has an entry named "../evil.txt""#)
        case .absoluteEntry: (.invalidArgumentError, #"step unpack: the bundle has an entry named "/tmp/evil.txt""#)
        case .symlinkEntry: (.invalidArgumentError, #"step unpack: the bundle's entry "dict.txt" is a symbolic link"#)
        case .duplicateEntry:
            (.invalidArgumentError, #"step unpack: the bundle has two entries named "model.tflite"; each name appears once"#)
        case .zipBomb: (.resourceExhaustedError, "step unpack: the bundle unpacks to more than 8388608 bytes")
        case .corruptModel: (.invalidArgumentError, "step load: bundle's model.tflite: The file is not a TFLite model")
        case .indexNotJSON: (.invalidArgumentError, "step index: ")
        }
    }

    /// Breaks the server or publishes a broken version 2.
    func apply(to fixture: DownloadFixture) throws {
        let server = fixture.server
        let good = StaticModelHost.automlEntries()
        switch self {
        case .serverDown:
            server.stop()
        case .notFound:
            try server.publish(["flowers": ("flowers-v1.zip", 2, .automlZip)])
            try FileManager.default.removeItem(at: server.root.appendingPathComponent("flowers-v1.zip"))
        case .serverError, .droppedMidBody, .stall:
            if self == .stall {
                // Short only here: on a busy machine a healthy local transfer can pause for a second.
                fixture.manager.transferOptions = ModelTransferOptions(stallTimeout: 1, maxAttempts: 2, retryDelay: 0)
            }
            try fixture.publishAutoML(version: 2)
            try server.inject(
                ["serverError": "500", "droppedMidBody": "drop", "stall": "stall"][rawValue]!, at: "/flowers-v2.zip")
        case .wrongSHA256:
            try server.makeZip("flowers-v2.zip", good)
            try server.publish(["flowers": ("flowers-v2.zip", 2, .automlZip)], sha256: String(repeating: "0", count: 64))
        case .truncatedZip:
            let zip = try server.makeZip("flowers-v2.zip", good)
            let bytes = try Data(contentsOf: zip)
            try bytes.prefix(bytes.count / 2).write(to: zip)
            try server.publish(["flowers": ("flowers-v2.zip", 2, .automlZip)])
        case .parentEntry, .absoluteEntry:
            let name = self == .parentEntry ? "../evil.txt" : "/tmp/evil.txt"
            try publish(good + [["name": name, "text": "evil"]], on: server)
        case .symlinkEntry:
            try publish(
                good.filter { $0["name"] as? String != "dict.txt" } + [["name": "dict.txt", "symlink": "/etc/passwd"]], on: server
            )
        case .duplicateEntry:
            try publish(good + [["name": "model.tflite", "text": "a second model"]], on: server)
        case .zipBomb:
            try publish(good + [["name": "padding.bin", "zeros": 64 << 20]], on: server)
        case .corruptModel:
            let garbage = server.folder.appendingPathComponent("garbage.tflite")
            try Data(repeating: 0x5A, count: 4096).write(to: garbage)
            try publish(StaticModelHost.automlEntries(model: garbage), on: server)
        case .indexNotJSON:
            try Data("<html>not an index</html>".utf8).write(to: server.root.appendingPathComponent("index.json"))
        }
    }

    private func publish(_ entries: [[String: Any]], on server: StaticModelHost) throws {
        try server.makeZip("flowers-v2.zip", entries)
        try server.publish(["flowers": ("flowers-v2.zip", 2, .automlZip)])
    }
}

extension ModelManagerSuites {
    @Suite struct DownloadFaultTests {
        /// Each fault: the failure notification with the right error, version 1 still installed and
        /// labeling as before, no temporaries left.
        @Test(arguments: DownloadFault.allCases)
        func faultKeepsThePreviousVersion(fault: DownloadFault) async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            #expect(await fixture.download() == .succeeded)
            let before = try #require(fixture.installed)
            let expectedLabels = try fixture.labels(AutoMLImageLabelerOptions(remoteModel: fixture.remoteModel))

            try fault.apply(to: fixture)
            guard let error = await fixture.failedDownload("\(fault): ") else { return }
            #expect(error.code == fault.expected.code, "\(fault): \(error)")
            #expect(error.subject == .remoteModel("flowers"), "\(fault): \(error)")
            #expect(error.message.hasPrefix("flowers: download failed at "), "\(fault): \(error)")
            #expect(error.message.contains(fault.expected.fragment), "\(fault): \(error)")

            #expect(fixture.installed == before, "\(fault)")
            #expect(fixture.temporaries == [], "\(fault)")
            #expect(!FileManager.default.fileExists(atPath: fixture.cache.appendingPathComponent("evil.txt").path))
            let after = try fixture.labels(AutoMLImageLabelerOptions(remoteModel: fixture.remoteModel))
            #expect(after == expectedLabels, "\(fault)")
        }

        /// A connection dropped mid-body is retried: two attempts (the fixture's maxAttempts) reach the server.
        @Test func droppedConnectionIsRetried() async throws {
            let fixture = try DownloadFixture()
            try DownloadFault.droppedMidBody.apply(to: fixture)
            _ = await fixture.download()
            #expect(fixture.server.requestCount("/flowers-v2.zip") == 2)
        }

        /// A stalled transfer gives up after about the configured stall timeout (one attempt).
        @Test func stallGivesUpAfterTheTimeout() async throws {
            let fixture = try DownloadFixture(transfer: ModelTransferOptions(stallTimeout: 1, maxAttempts: 1))
            try fixture.publishAutoML(version: 1)
            try fixture.server.inject("stall", at: "/flowers-v1.zip")
            let watcher = DownloadWatcher(name: fixture.name)
            let start = monotonicSeconds()
            fixture.manager.download(fixture.remoteModel, conditions: ModelDownloadConditions())
            #expect(await Waiting.poll(safetyNet: 60) { fixture.server.requestCount("/flowers-v1.zip") == 1 })
            let requested = monotonicSeconds()
            let event = await watcher.next()
            let end = monotonicSeconds()
            guard case .failed(let error) = event else {
                Issue.record("expected a failure, got \(String(describing: event))")
                return
            }
            #expect(error.code == .deadlineExceededError, "\(error)")
            expectGaveUp(outer: end - start, inner: end - requested, timeoutMilliseconds: 1000)
        }

        /// A 404 is not retried.
        @Test func notFoundIsNotRetried() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            try fixture.server.publish(["flowers": ("missing.zip", 1, .automlZip)], sha256: String(repeating: "a", count: 64))
            _ = await fixture.download()
            #expect(fixture.server.requestCount("/missing.zip") == 1)
        }
    }
}
