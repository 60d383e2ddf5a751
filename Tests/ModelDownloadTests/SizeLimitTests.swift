import FileSystem
import Foundation
import ImageLabeling
import ModelDownloads
import TasksCommon
import TestSupport
import Testing

extension ModelManagerSuites {
    /// Sizes a download cannot accept are refused when the index is read, or as soon as the body
    /// passes them.
    @Suite struct SizeLimitTests {
        /// A body longer than the index's size, announced or not, stops being read at the first byte
        /// past it and its connection is closed: what the server managed to send of its 1 GiB is the
        /// size and what the two sockets buffer (a few MiB on loopback).
        @Test(arguments: [
            ("flood", "sent more than the "),
            ("flood-length", "has Content-Length 1073741824, the index says "),
        ])
        func longerBodyStopsTheTransfer(fault: String, fragment: String) async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            let size = try fixture.server.fileSize("flowers-v1.zip")
            try fixture.server.inject(fault, at: "/flowers-v1.zip")
            guard let error = await fixture.failedDownload("\(fault): ") else { return }
            #expect(error.code == .dataLossError, "\(fault): \(error)")
            #expect(
                error.message.contains("step transfer: \(fixture.server.baseURL.absoluteString)flowers-v1.zip \(fragment)"),
                "\(fault): \(error)")
            #expect(await Waiting.poll(safetyNet: 120) { fixture.server.floodedBytes("/flowers-v1.zip") != nil })
            let sent = try #require(fixture.server.floodedBytes("/flowers-v1.zip"))
            #expect(sent < size + (16 << 20), "\(fault): the server sent \(sent) bytes for a bundle of \(size)")
            #expect(fixture.temporaries == [])
        }

        /// An index giving a bundle a size over the limit (`unpackedSizeLimit`, 8 MiB here) is
        /// refused as it is read, naming the model, the field and the value: the bundle is never
        /// requested.
        @Test func indexedSizeOverTheLimitIsRefused() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            let digest = try SHA256Hasher.hexDigest(ofFileAt: fixture.server.root.appendingPathComponent("flowers-v1.zip"))
            let index = """
                {"formatVersion": 1, "models": {"flowers": {"file": "flowers-v1.zip", "version": 1, "sha256": "\(digest)",
                 "size": 1e15, "kind": "automl-zip"}}}
                """
            try Data(index.utf8).write(to: fixture.server.root.appendingPathComponent("index.json"))
            guard let error = await fixture.failedDownload() else { return }
            #expect(error.code == .resourceExhaustedError, "\(error)")
            #expect(
                error.message.contains(
                    "flowers: download failed at step index: \(fixture.server.baseURL.absoluteString)index.json gives model "
                        + #""flowers" the size 1000000000000000 bytes, over the limit of 8388608 bytes"#),
                "\(error)")
            #expect(fixture.server.requestCount("/flowers-v1.zip") == 0)
        }
    }
}
