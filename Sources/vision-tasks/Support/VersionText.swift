import FileSystem
import LiteRT
import ModelDownloads
import TasksCommon

/// `vision-tasks --version`: the tool's version, then which LiteRT build it runs.
enum VersionText {
    /// Prints "vision-tasks 0.1.0", then "LiteRT 2.3.0 (PATH)", or for a library that is not the
    /// one `scripts/bootstrap` installs, "LiteRT: unknown build (PATH, sha256 HEX)".
    /// - Returns: the exit status: 0, or 1 after reporting on stderr a library file that cannot
    ///   be found or read.
    static func run() -> Int32 {
        StandardStreams.emit("vision-tasks \(visionTasksVersion)")
        do throws(TasksError) {
            StandardStreams.emit(try LiteRTBuild.loaded(sha256: SHA256Hasher.hexDigest(ofFileAt:)).description)
            return 0
        } catch {
            StandardStreams.reportError(error)
            return 1
        }
    }
}
