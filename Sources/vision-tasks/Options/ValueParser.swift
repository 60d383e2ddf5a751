/// The transforms options use to turn their text into checked values, with the usage
/// messages every command shares ("--threads must be between 1 and 64, got 0").
enum ValueParser {
    /// An integer in `range`.
    static func integer(
        _ name: String, in range: ClosedRange<Int> = Int.min...Int.max
    )
        -> @Sendable (String) throws(UsageError) -> Int
    {
        { text throws(UsageError) in
            guard let number = Int(text) else { throw UsageError("--\(name) expects an integer, got '\(text)'") }
            guard range.contains(number) else {
                let bounds =
                    range.upperBound == Int.max
                    ? "at least \(range.lowerBound)"
                    : "between \(range.lowerBound) and \(range.upperBound)"
                throw UsageError("--\(name) must be \(bounds), got \(number)")
            }
            return number
        }
    }

    /// A finite number, then `check` (which throws its own message).
    static func number(
        _ name: String, check: @escaping @Sendable (Float) throws(UsageError) -> Void = { _ in }
    )
        -> @Sendable (String) throws(UsageError) -> Float
    {
        { text throws(UsageError) in
            guard let number = Float(text), number.isFinite else { throw UsageError("--\(name) expects a number, got '\(text)'") }
            try check(number)
            return number
        }
    }

    /// A number in `range`.
    static func decimal(_ name: String, in range: ClosedRange<Double>) -> @Sendable (String) throws(UsageError) -> Double {
        { text throws(UsageError) in
            guard let number = Double(text), number.isFinite else {
                throw UsageError("--\(name) expects a number, got '\(text)'")
            }
            guard range.contains(number) else {
                throw UsageError("--\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(text)")
            }
            return number
        }
    }
}
