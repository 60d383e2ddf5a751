import Glibc
import TasksCommon

/// One command-line argument as the system gives it: bytes, which need not be UTF-8.
///
/// `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD, after which a file
/// name no longer names its file. An argument keeps its bytes for paths (`path`) beside the
/// text used for option names and values (`text`).
struct CommandLineArgument: Sendable, Equatable {
    /// The argument's bytes, without the terminating NUL.
    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// An argument spelled by `text` (its UTF-8 bytes).
    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The argument as text, invalid UTF-8 repaired with U+FFFD: for option names and values.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The argument as a path, byte for byte.
    var path: FileSystemPath { FileSystemPath(bytes: bytes) }

    /// The process's arguments after the program name, read from the C `argv` (through
    /// `CommandLine.unsafeArgv` and `CommandLine.argc`), byte for byte.
    static var processArguments: [CommandLineArgument] {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return [] }
        return (1..<count).compactMap { index in
            // Borrowed: argv lives as long as the process; the bytes are copied at once.
            CommandLine.unsafeArgv[index].map { argument in
                let length = strlen(argument)
                return argument.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                    CommandLineArgument(bytes: Array(UnsafeBufferPointer(start: bytes, count: length)))
                }
            }
        }
    }
}
