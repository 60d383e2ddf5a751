import TasksCommon

extension SplitMix64 {
    /// A uniform float in [0, 1) from the top 24 bits (a float's whole mantissa), the same on every platform.
    mutating func nextUnitFloat() -> Float {
        Float(next() >> 40) * (1 / Float(1 << 24))
    }

    /// A uniform float in [−limit, limit).
    mutating func nextSymmetric(_ limit: Float) -> Float {
        (2 * nextUnitFloat() - 1) * limit
    }

    /// A uniform integer in 0 ..< bound (bound ≥ 1), by the multiply-shift method: the slight bias
    /// (bound / 2⁶⁴) is immaterial for shuffles, and unlike `Int.random(in:using:)` the mapping
    /// is fixed here, not by the standard library's version.
    mutating func nextIndex(below bound: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Shuffles `values` in place (Fisher–Yates).
    mutating func shuffle(_ values: inout [Int]) {
        guard values.count > 1 else { return }
        for i in stride(from: values.count - 1, to: 0, by: -1) {
            values.swapAt(i, nextIndex(below: i + 1))
        }
    }
}
