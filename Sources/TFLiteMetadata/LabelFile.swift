import Foundation

/// Parses label files (`tensorAxisLabels` associated files): one label per line.
///
/// Mirrors MediaPipe's `BuildLabelMapFromFiles` (`util/label_map_util.cc`) with
/// `ForEachLine` (`util/str_util.cc`).
package enum LabelFile {
    /// Splits a label file into labels.
    ///
    /// Lines end at "\n", "\r" or "\r\n", and a final terminator does not start another
    /// line; then one trailing empty line is dropped. So "a\nb\n" and "a\nb" give
    /// ["a", "b"], "a\n\n" gives ["a"] (its lines are "a" and "", and the "" is dropped),
    /// and "a\n\n\n" gives ["a", ""].
    /// Labels are decoded as UTF-8 (invalid sequences replaced) and are not trimmed.
    ///
    /// - Parameter data: the file's bytes.
    /// - Returns: the labels, in order; index *i* names class *i*. Empty for empty data
    ///   (MediaPipe then fails with "Expected non-empty labels file."; the caller decides).
    package static func parse(_ data: Data) -> [String] {
        var labels: [String] = []
        var lineStart = data.startIndex
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index += 1
                continue
            }
            labels.append(String(decoding: data[lineStart..<index], as: UTF8.self))
            let next = data.index(after: index)
            index = byte == UInt8(ascii: "\r") && next < data.endIndex && data[next] == UInt8(ascii: "\n") ? next + 1 : next
            lineStart = index
        }
        if lineStart < data.endIndex {
            labels.append(String(decoding: data[lineStart..<data.endIndex], as: UTF8.self))
        }
        if labels.last?.isEmpty == true {
            labels.removeLast()
        }
        return labels
    }
}
