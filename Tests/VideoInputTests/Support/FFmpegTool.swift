import Foundation
import Testing

/// The `ffmpeg` command, used to make test media at test time. Tests that need it are skipped,
/// with `missingReason`, when it is not installed.
enum FFmpegTool {
    /// The path of `ffmpeg` found on `PATH`, or nil.
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether `ffmpeg` is installed; use in `.enabled(if:)` traits.
    static var isAvailable: Bool { path != nil }

    /// Why tests that need `ffmpeg` are skipped.
    static let missingReason: Comment =
        "the ffmpeg command is not installed: run ./scripts/bootstrap (it installs Debian's ffmpeg)"

    /// The names of the encoders this `ffmpeg` has (`ffmpeg -encoders`).
    static let encoders: Set<String> = {
        guard let output = try? run(["-hide_banner", "-encoders"]) else { return [] }
        return Set(
            output.split(separator: "\n").compactMap { line -> String? in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 2, fields[0].count == 6, fields[0].first == "V" else { return nil }
                return String(fields[1])
            })
    }()

    /// Runs `ffmpeg` with `arguments` (after `-nostdin -v error`) and returns its standard output.
    ///
    /// - Throws: `Failure` with the exit status and standard error when it fails.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        guard let path else { throw Failure(message: "ffmpeg not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-nostdin", "-v", "error"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes to the end before waiting, so that a full pipe cannot stall ffmpeg.
        let errorData = ThreadSafeBox<Data>()
        let errorsRead = DispatchSemaphore(value: 0)
        let errorReader = Thread {
            errorData.value = errors.fileHandleForReading.readDataToEndOfFile()
            errorsRead.signal()
        }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorsRead.wait()
        guard process.terminationStatus == 0 else {
            throw Failure(
                message:
                    "ffmpeg \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(String(decoding: errorData.value ?? Data(), as: UTF8.self))"
            )
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    /// A failed `ffmpeg` run.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// A value set by one thread and read by another.
final class ThreadSafeBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    /// The value, nil until set.
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
