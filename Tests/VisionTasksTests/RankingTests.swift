import TestSupport
import Testing

@testable import TaskRuntime

/// The postprocessor's allocation-free ranking (integer keys, selection of the best k, radix
/// sort) gives the order of the plain stable sort by descending score, ties by index.
struct RankingTests {
    /// The reference: filter, sort with the comparator, take the first `maxResults`.
    static func reference(_ scores: [Float], threshold: Float, allowed: (Int) -> Bool, maxResults: Int) -> [Int] {
        let kept = scores.indices.filter { scores[$0] >= threshold && allowed($0) }
        let sorted = kept.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        return maxResults > 0 ? Array(sorted.prefix(maxResults)) : sorted
    }

    static func ranked(_ scores: [Float], threshold: Float, allowed: (Int) -> Bool, maxResults: Int) -> [Int] {
        let keys = UnsafeMutableBufferPointer<UInt64>.allocate(
            capacity: ClassificationPostprocessor.keyCapacity(categoryCount: scores.count))
        defer { keys.deallocate() }
        let count = scores.withUnsafeBufferPointer {
            ClassificationPostprocessor.rank(
                scores: $0, threshold: threshold, allowed: allowed, maxResults: maxResults, keys: keys)
        }
        return keys[0..<count].map(ClassificationPostprocessor.index(of:))
    }

    /// Score lists with ties, signed zeros, negatives, infinities, NaN and quantized steps.
    static func scoreLists() -> [[Float]] {
        var random = SplitMix64(seed: 42)
        var lists: [[Float]] = [[], [0.5], [0, -0.0, 0, -0.0], [.infinity, 1, -.infinity, .nan, 1, .infinity]]
        for count in [5, 64, 65, 1001, 3000] {
            lists.append((0..<count).map { _ in Float(Int.random(in: 0...255, using: &random)) / 256 })  // many ties
            lists.append((0..<count).map { _ in Float.random(in: -30...30, using: &random) })  // logits
            lists.append(
                (0..<count).map { _ in
                    [Float(0), -0.0, 1e-30, -1e-30, .greatestFiniteMagnitude, -.leastNonzeroMagnitude][
                        Int.random(in: 0...5, using: &random)]
                })
        }
        return lists
    }

    @Test("the same order as the stable sort, for every maxResults and threshold")
    func matchesStableSort() {
        for scores in Self.scoreLists() {
            for maxResults in [-1, 1, 5, 63, 64, 65, 1000, 5000] {
                for threshold: Float in [-.infinity, 0, 0.5, -5] {
                    for allowed: (Int) -> Bool in [{ _ in true }, { $0 % 3 != 1 }] {
                        let expected = Self.reference(scores, threshold: threshold, allowed: allowed, maxResults: maxResults)
                        let actual = Self.ranked(scores, threshold: threshold, allowed: allowed, maxResults: maxResults)
                        #expect(actual == expected, "\(scores.count) scores, maxResults \(maxResults), threshold \(threshold)")
                    }
                }
            }
        }
    }
}
