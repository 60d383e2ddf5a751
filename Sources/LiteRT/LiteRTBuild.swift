import CLiteRt
import Foundation
import TasksCommon

/// Which LiteRT this process runs: the file of the loaded libLiteRt.so and its SHA-256, named
/// after its release when it is the file `scripts/bootstrap` installs.
///
/// libLiteRt.so exports no version function, so the file is the evidence: its path comes from
/// the dynamic loader (`dladdr` on a LiteRT function), its digest is compared with the pin.
package struct LiteRTBuild: Sendable {
    /// The release `scripts/bootstrap` installs: the libLiteRt.so of PyPI's `ai-edge-litert` wheel
    /// of this version. (`scripts/bootstrap` reads this line.)
    package static let pinnedVersion = "2.3.0"
    /// The SHA-256 of that libLiteRt.so. (`scripts/bootstrap` reads this line and checks the
    /// installed file against it.)
    package static let pinnedLibrarySHA256 = "eec47eb35e2924b3166015887e652a58edc9af823ae38e02bf83bef2548300bb"

    /// The loaded library's path, as the dynamic loader opened it.
    package let path: String
    /// The file's SHA-256: 64 lowercase hexadecimal digits.
    package let sha256: String

    /// The release, when the file is the pinned one; nil for any other build.
    package var version: String? { sha256 == Self.pinnedLibrarySHA256 ? Self.pinnedVersion : nil }

    /// "LiteRT 2.3.0 (PATH)", or "LiteRT: unknown build (PATH, sha256 HEX)".
    package var description: String {
        version.map { "LiteRT \($0) (\(path))" } ?? "LiteRT: unknown build (\(path), sha256 \(sha256))"
    }

    /// The build this process loaded.
    /// - Parameter sha256: the SHA-256 of a file, as 64 lowercase hexadecimal digits (the caller's
    ///   hasher: this target links no cryptography).
    /// - Throws: `TasksError` internal when the loader cannot name the library's file, or the
    ///   file cannot be read (with its path as subject).
    package static func loaded(sha256: (URL) throws -> String) throws(TasksError) -> LiteRTBuild {
        let path = try loadedLibraryPath()
        do {
            return LiteRTBuild(path: path, sha256: try sha256(URL(fileURLWithPath: path)))
        } catch {
            throw .internal("The LiteRT library cannot be read: \(error.localizedDescription)", subject: .file(path))
        }
    }

    /// The path of the shared object holding LiteRT's functions. The corresponding C function is
    /// `dladdr`.
    private static func loadedLibraryPath() throws(TasksError) -> String {
        // Executables are position-independent, so a C function's address is its definition in
        // the library, not a stub in the executable (were it a stub, the executable's path and
        // digest would show as an unknown build: wrong, but never a false "2.3.0").
        let function = unsafeBitCast(
            LiteRtDestroyEnvironment as @convention(c) (LiteRtEnvironment?) -> Void, to: UnsafeRawPointer.self)
        var info = LiteRtShimSymbolInfo()
        // file_name is borrowed from the loader and lives as long as the library: copied at once.
        guard litert_shim_dladdr(function, &info) != 0, let name = info.file_name else {
            throw .internal("The dynamic loader does not know which file holds LiteRT's functions.")
        }
        return String(cString: name)
    }
}
