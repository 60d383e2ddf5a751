import Foundation
import Testing

/// The resident memory of this process, and measurements of it taken where no other test runs.
///
/// Tests run in parallel in one process, so allocations of other tests land in any resident-size
/// measurement taken here. A test that checks for leaks by resident size therefore measures in
/// a process of its own (`measuredAlone`): the test binary started again with a filter that
/// selects only that test. (A `.serialized` suite would not do: it orders its own tests, not
/// the rest of the run.)
public enum ResidentMemory {
    /// The environment variable that, in the child process, names the file the measurement is
    /// written to.
    public static let environmentVariable = "SWIFT_VISION_TASKS_MEASURE_ALONE"

    /// The resident set size of this process in bytes (`/proc/self/statm`).
    public static func bytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { throw Failure("unreadable /proc/self/statm: \(fields)") }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Resident sizes read around two halves of rounds of the same work.
    public struct Growth: Codable, Sendable, CustomStringConvertible {
        /// Rounds in each half.
        public let rounds: Int
        /// Bytes before the first half, between the halves, after the second.
        public let start, middle, end: Int

        /// Growth over both halves.
        public var total: Int { end - start }
        /// The smaller growth of the two halves: a leak grows both.
        public var smallerHalf: Int { min(middle - start, end - middle) }

        public var description: String {
            "resident \(start >> 20) MiB, +\((middle - start) >> 20) MiB after \(rounds) rounds, +\((end - middle) >> 20) MiB after \(rounds) more"
        }
    }

    /// Runs `round` `warmUp` times (allocator pools and caches settle), then two halves of
    /// `rounds`, reading the resident size before, between and after the halves.
    public static func measure(warmUp: Int, rounds: Int, _ round: () throws -> Void) throws -> Growth {
        for _ in 0..<warmUp { try round() }
        let start = try bytes()
        for _ in 0..<rounds { try round() }
        let middle = try bytes()
        for _ in 0..<rounds { try round() }
        return Growth(rounds: rounds, start: start, middle: middle, end: try bytes())
    }

    /// Runs `measurement` in a process where no other test runs, and returns its result.
    ///
    /// Here, starts this test binary again (`IsolatedTestRun`) with `environmentVariable`
    /// naming a file, and returns what the child wrote there. In the child, runs `measurement`,
    /// prints its result (the figures show in the child's output), writes it to the file and
    /// returns it, so the calling test goes on to check it in both processes.
    public static func measuredAlone<T: Codable & Sendable>(
        filter: String, sourceLocation: SourceLocation = #_sourceLocation, _ measurement: () throws -> T
    ) async throws -> T {
        if let path = ProcessInfo.processInfo.environment[environmentVariable] {
            let result = try measurement()
            print("\(filter): \(result)")
            try JSONEncoder().encode(result).write(to: URL(fileURLWithPath: path))
            return result
        }
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("measurement.json")
        let child = try await IsolatedTestRun.run(filter: filter, environment: [environmentVariable: report.path])
        let data = try #require(
            try? Data(contentsOf: report),
            "the measurement in a process of its own (\(filter)) wrote nothing; it printed:\n\((child.text + child.stderr).suffix(8000))",
            sourceLocation: sourceLocation)
        return try JSONDecoder().decode(T.self, from: data)
    }

    /// A resident size that could not be read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
