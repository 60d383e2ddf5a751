import Foundation
import TestSupport
import Testing

/// `vision-tasks --version`: the tool's version, then the LiteRT library the process loaded,
/// named by release only when its SHA-256 is the one `scripts/bootstrap` installs. The library's
/// path and digest are found here without the tool: `ldd` and `sha256sum`.
struct VersionTests {
    /// The tool's version, as the server's metadata reports it too.
    static let toolVersion = "0.1.0"

    /// The library `vision-tasks` loads, as the dynamic loader resolves it (`ldd`).
    static func loadedLibrary(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let executable = try #require(VisionTasksTool.executable, sourceLocation: sourceLocation)
        let ldd = try await ExternalProgram.run("/usr/bin/ldd", [executable.path], sourceLocation: sourceLocation)
        let line = try #require(
            ldd.text.split(separator: "\n").first { $0.contains("libLiteRt.so => ") }, "\(ldd)",
            sourceLocation: sourceLocation)
        return String(line.split(separator: " ")[2])
    }

    @Test func versionNamesTheToolAndTheInstalledLiteRT() async throws {
        let run = try await VisionTasksTool.run(["--version"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        let library = try await Self.loadedLibrary()
        #expect(run.stdoutLines == ["vision-tasks \(Self.toolVersion)", "LiteRT 2.3.0 (\(library))"], "\(run)")
    }

    /// Another build (here the installed library with one byte appended, found first through
    /// LD_LIBRARY_PATH) is not given a version: its path and SHA-256 are.
    @Test func anotherBuildIsUnknown() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("libLiteRt.so")
        try (Data(contentsOf: URL(fileURLWithPath: try await Self.loadedLibrary())) + [0]).write(to: copy)
        let sha256sum = try await ExternalProgram.run("/usr/bin/sha256sum", [copy.path])
        let digest = try #require(sha256sum.text.split(separator: " ").first, "\(sha256sum)")

        let run = try await VisionTasksTool.run(["--version"], environment: ["LD_LIBRARY_PATH": folder.path])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(
            run.stdoutLines == ["vision-tasks \(Self.toolVersion)", "LiteRT: unknown build (\(copy.path), sha256 \(digest))"],
            "\(run)")
    }
}
