import TasksCommon

/// `--shard I/N`: the images whose path hashes to `index` of `count` buckets.
///
/// The bucket is FNV-1a (64 bits) of the path's bytes modulo `count`, so that every worker of an
/// indexed job (Kubernetes, Slurm arrays) given the same list, or the same folders, takes a
/// disjoint share and the shares together cover every image, whatever order each worker reads
/// them in.
package struct Shard: Sendable, Equatable {
    /// 0-based, below `count`.
    package let index: Int
    /// At least 1.
    package let count: Int

    /// "I/N" with 0 <= I < N.
    /// - Throws: `TasksError` invalidArgument (subject: the option `shard`) for anything else.
    package init(_ text: String) throws(TasksError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidArgument("--shard expects I/N (for example 0/4), got '\(text)'", subject: .option("shard"))
        }
        guard count >= 1, (0..<count).contains(index) else {
            throw .invalidArgument("--shard I/N needs N >= 1 and 0 <= I < N, got '\(text)'", subject: .option("shard"))
        }
        self.index = index
        self.count = count
    }

    /// Whether `path` belongs to this shard.
    package func contains(_ path: FileSystemPath) -> Bool {
        Int(Self.hash(path.bytes) % UInt64(count)) == index
    }

    /// FNV-1a, 64 bits.
    package static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
