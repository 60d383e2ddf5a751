import FileSystem
import Foundation
import Glibc
import TasksCommon

/// `--resume OUT.jsonl` of one task: the file, and the member its task's records hold.
package struct ResumeFile: Sendable {
    package let path: String
    /// `TaskOutput.recordKey`: "classifications", "labels" or "embeddings".
    package let recordKey: String

    package init<Output: TaskOutput>(_ path: String, for output: Output.Type) {
        self.path = path
        recordKey = Output.recordKey
    }
}

/// `--resume OUT.jsonl`: the images an earlier run's jsonl output already has a result for.
///
/// A line counts when it is a JSON object with an `image`, no `error`, and the task's output
/// member (`ResumeFile.recordKey`: so that classify's output does not count as done for embed);
/// images that failed are tried again, and a line cut short (a run killed while writing) or
/// anything else that is not such a record is ignored: a line that is not a JSON object with
/// an `image` (other than blank lines and a partial last line) is counted in `Scan.foreignLines`
/// for the caller to warn about, as the file may not be the output it was meant to be. A
/// missing file is an empty one (the first run of a job), so the same command can start and
/// resume it.
package enum ResumeRecords {
    /// What a resume file holds.
    package struct Scan: Sendable, Equatable {
        /// The `image` members of the successful records.
        package var completedImages: Set<String> = []
        /// The numbers (from 1) of the complete lines that are not a JSON object with an `image`.
        package var foreignLines: [Int] = []
    }

    /// The successful records of the file, and its lines that are not records.
    /// - Throws: `TasksError` naming the file when it exists but cannot be read.
    package static func scan(_ file: ResumeFile) throws(TasksError) -> Scan {
        let path = file.path
        let kind = FileKind(noun: "resume file", maximumByteCount: .max)
        let handle: FileDescriptor
        do throws(Errno) {
            handle = try FileDescriptor.open(FileSystemPath(path), O_RDONLY)
        } catch {
            if error == .noSuchFile { return Scan() }
            throw error.tasksError(path: FileSystemPath(path), kind: kind)
        }
        var scan = Scan()
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var lineNumber = 0
        let decoder = JSONDecoder()
        decoder.userInfo[Record.outputKey] = file.recordKey
        func take(_ line: ArraySlice<UInt8>, complete: Bool = true) {
            lineNumber += 1
            guard let record = try? decoder.decode(Record.self, from: Data(line)) else {
                let blank = line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
                if complete, !blank { scan.foreignLines.append(lineNumber) }
                return
            }
            if record.error == nil, record.hasOutput { scan.completedImages.insert(record.image) }
        }
        while true {
            let count = try FileSystemPath(path).failing(as: kind) { () throws(Errno) in try handle.read(into: &chunk) }
            if count == 0 { break }
            pending += chunk[..<count]
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                take(pending[start..<newline])
                start = newline + 1
            }
            pending.removeFirst(start - pending.startIndex)
        }
        if !pending.isEmpty { take(pending[...], complete: false) }
        return scan
    }

    /// The members of a record that matter here.
    private struct Record: Decodable {
        /// The `userInfo` entry naming the output member.
        static let outputKey = CodingUserInfoKey(rawValue: "recordKey")!

        let image: String
        let error: ErrorRecord?
        let hasOutput: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Member.self)
            image = try container.decode(String.self, forKey: Member("image"))
            error = try container.decodeIfPresent(ErrorRecord.self, forKey: Member("error"))
            hasOutput = (decoder.userInfo[Self.outputKey] as? String).map { container.contains(Member($0)) } ?? false
        }
    }

    /// A member named at run time.
    private struct Member: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
