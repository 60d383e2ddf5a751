/// Compares dotted version strings as MediaPipe's `CompareVersions`
/// (`tasks/cc/metadata/metadata_version_utils.cc`).
enum DottedVersion {
    /// Compares `a` with `b` component by component: components are split on ".", empty
    /// components are skipped, a missing component counts as 0, and each component is read
    /// as `std::stoi` does (optional leading whitespace and sign, then digits; trailing
    /// characters ignored). Returns -1, 0 or 1, or nil when a component has no leading
    /// integer or it does not fit in 32 bits (where `std::stoi` throws).
    static func compare(_ a: String, _ b: String) -> Int? {
        guard let left = components(a), let right = components(b) else { return nil }
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : 0
            let y = index < right.count ? right[index] : 0
            if x != y { return x > y ? 1 : -1 }
        }
        return 0
    }

    private static func components(_ version: String) -> [Int32]? {
        var values: [Int32] = []
        for part in version.split(separator: ".", omittingEmptySubsequences: true) {
            guard let value = leadingInteger(part) else { return nil }
            values.append(value)
        }
        return values
    }

    /// `std::stoi`: skips leading whitespace, reads an optional sign and at least one digit.
    private static func leadingInteger(_ text: Substring) -> Int32? {
        var scalars = Substring.UnicodeScalarView(text.unicodeScalars.drop { " \t\n\u{0B}\u{0C}\r".unicodeScalars.contains($0) })
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars.removeFirst()
        }
        let digits = scalars.prefix { ("0"..."9").contains($0) }
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for digit in digits {
            value = value * 10 + Int64(digit.value - 48)
            if value > Int64(Int32.max) + 1 { return nil }
        }
        if negative { value = -value }
        return Int32(exactly: value)
    }
}
