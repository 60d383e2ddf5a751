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

    /// Splits a labels file a user gives to the metadata writer, as `parse` does, but refuses
    /// what `parse` would turn silently into other names: bytes that are not UTF-8. A UTF-8 byte
    /// order mark at the start (editors on Windows write one) is not part of the first label.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - fileName: the file's name, for the error.
    /// - Throws: `TasksError` invalidArgument naming the file and the first line that is not UTF-8.
    package static func parseForWriting(_ data: Data, fileName: String) throws(TasksError) -> [String] {
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let text = data.starts(with: byteOrderMark) ? data.dropFirst(byteOrderMark.count) : data[...]
        let labels = parse(Data(text))
        if let line = labels.firstIndex(where: { $0.unicodeScalars.contains("\u{FFFD}") }),
            String(validating: text, as: UTF8.self) == nil
        {
            throw .invalidArgument(
                "Labels file \(fileName) is not UTF-8 text (line \(line + 1) has bytes that are not UTF-8); save it as UTF-8.")
        }
        return labels
    }
}
