import Foundation
import TestSupport
import Testing

/// A photo given where a model goes: every command says it is not a TFLite model, and what it
/// looks like, rather than where FlatBuffer parsing stopped.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct NotAModelTests {
    static let reason =
        "The file is not a TFLite model: its file identifier (bytes 4-7) is 00 10 4a 46, not \"TFL3\". "
        + "It looks like a JPEG image."

    @Test(arguments: [
        ["inspect", Fixture.burger],
        ["classify", "--model", Fixture.burger, Fixture.burger],
        ["embed", "--model", Fixture.burger, Fixture.burger],
        ["train", "DATA", "--base", Fixture.burger, "--output", "OUT", "--no-cache", "--no-progress"],
    ])
    func photoAsModel(arguments: [String]) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a", "b"] {
            let classFolder = folder.appendingPathComponent("data/\(name)")
            try FileManager.default.createDirectory(at: classFolder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixture.burger, toPath: classFolder.appendingPathComponent("1.jpg").path)
        }
        let run = try await VisionTasksTool.run(
            arguments.map {
                $0 == "DATA"
                    ? folder.appendingPathComponent("data").path : $0 == "OUT" ? folder.appendingPathComponent("out").path : $0
            })
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics.contains { $0.hasSuffix("\(Fixture.burger): \(Self.reason)") }, "\(run)")
    }
}
