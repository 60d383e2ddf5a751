import Foundation
import TasksCommon

/// Parses score calibration files (`tensorAxisScoreCalibration` associated files).
///
/// Mirrors MediaPipe's `ConfigureScoreCalibration`
/// (`tasks/cc/components/calculators/score_calibration_utils.cc`).
package enum ScoreCalibrationFile {
    /// Splits a score calibration file into one sigmoid per class.
    ///
    /// The file is split on "\n" only, so line *i* is class *i* and a trailing newline adds
    /// one more, empty, line. An empty line gives nil: that class always gets the default
    /// score. Other lines are `scale,slope,offset[,min_score]`, each value a decimal float
    /// as `absl::SimpleAtof` reads it (surrounding ASCII whitespace allowed, so a "\r"
    /// before the "\n" is ignored; "inf" and "nan" accepted; no hexadecimal).
    ///
    /// - Parameter data: the file's bytes (UTF-8).
    /// - Returns: one entry per line; nil for an empty line.
    /// - Throws: `TasksError` with code `invalidArgumentError` and MediaPipe's texts:
    ///   "Expected non-empty score calibration file." for empty data;
    ///   "Expected 3 or 4 parameters per line in score calibration file, got N.";
    ///   "Could not parse score calibration parameter as float: X.";
    ///   "The scale parameter of the sigmoids must be positive, found -1.000000."
    ///   The message ends with the 1-based line number.
    package static func parse(_ data: Data) throws(TasksError) -> [Sigmoid?] {
        guard !data.isEmpty else {
            throw .invalidArgument("Expected non-empty score calibration file.")
        }
        // Split the bytes, not a String: in Swift "\r\n" is one Character, not "\r" then "\n".
        var sigmoids: [Sigmoid?] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            do {
                sigmoids.append(try sigmoid(line))
            } catch {
                throw .invalidArgument("\(error.message) (score calibration file line \(index + 1))")
            }
        }
        return sigmoids
    }

    /// Parses one line (UTF-8 bytes); nil for an empty line.
    private static func sigmoid(_ line: Data) throws(TasksError) -> Sigmoid? {
        guard !line.isEmpty else { return nil }
        let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count == 3 || fields.count == 4 else {
            throw .invalidArgument("Expected 3 or 4 parameters per line in score calibration file, got \(fields.count).")
        }
        var values: [Float] = []
        for field in fields {
            guard let value = simpleAtof(field) else {
                throw .invalidArgument(
                    "Could not parse score calibration parameter as float: \(String(decoding: field, as: UTF8.self)).")
            }
            values.append(value)
        }
        guard values[0] >= 0 else {
            throw .invalidArgument(
                "The scale parameter of the sigmoids must be positive, found \(String(format: "%f", Double(values[0]))).")
        }
        return Sigmoid(scale: values[0], slope: values[1], offset: values[2], minScore: values.count == 4 ? values[3] : nil)
    }

    /// Reads a float as `absl::SimpleAtof`: ASCII whitespace is trimmed; one leading "+"
    /// is allowed (not "+-"); then `absl::from_chars` in general format: an optional "-",
    /// then "inf", "infinity", "nan" or "nan(chars)" in any case, or decimal digits with an
    /// optional "." and exponent. Out-of-range values become ±infinity (or 0). Nil when
    /// the text is not entirely such a number.
    static func simpleAtof(_ text: Data) -> Float? {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
        var bytes = Array(text)
        while let last = bytes.last, whitespace.contains(last) { bytes.removeLast() }
        var start = 0
        while start < bytes.count, whitespace.contains(bytes[start]) { start += 1 }
        if start < bytes.count, bytes[start] == UInt8(ascii: "+") {
            start += 1
            if start < bytes.count, bytes[start] == UInt8(ascii: "-") { return nil }
        }
        var body = Array(bytes[start...])
        var negative = false
        if body.first == UInt8(ascii: "-") {
            negative = true
            body.removeFirst()
        }
        guard !body.isEmpty else { return nil }
        let lower = String(decoding: body, as: UTF8.self).lowercased()
        let magnitude: Float
        if lower == "inf" || lower == "infinity" {
            magnitude = .infinity
        } else if lower == "nan"
            || (lower.hasPrefix("nan(") && lower.hasSuffix(")")
                && lower.dropFirst(4).dropLast().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        {
            magnitude = .nan
        } else {
            guard isDecimal(body), let value = Float(String(decoding: body, as: UTF8.self)) else { return nil }
            magnitude = value
        }
        return negative ? -magnitude : magnitude
    }

    /// Whether `bytes` is `digits [. digits] [(e|E) [+|-] digits]` with at least one mantissa digit.
    private static func isDecimal(_ bytes: [UInt8]) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var index = 0
        var mantissaDigits = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1; mantissaDigits += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < bytes.count, isDigit(bytes[index]) { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return false }
        }
        return index == bytes.count
    }
}
