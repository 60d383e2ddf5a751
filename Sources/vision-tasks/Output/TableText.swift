/// Text for the table format, where a line is a result: names and paths with their control
/// characters escaped, and aligned columns.
enum TableText {
    /// `text` with control and format characters (C0 and C1 controls, the Unicode line and
    /// paragraph separators, bidirectional overrides) written as escapes: a newline as `\n`, a
    /// tab as `\t`, a carriage return as `\r`, others as `\u{1B}`. A file or category name can
    /// then neither start a line that looks like another result nor move the cursor. Backslashes
    /// are left as they are, as in JSON and in the `\xNN` of undecodable file-name bytes, so a
    /// name that contains such text literally reads the same (a documented ambiguity).
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// The rows under a header, each column as wide as its widest cell: the `rightAligned`
    /// columns (numbers; by default the first and last) right-aligned, the others left-aligned,
    /// trailing spaces removed. Cells must be escaped already.
    static func aligned(header: [String], rows: [[String]], indent: String, rightAligned: Set<Int>? = nil) -> [String] {
        let rightAligned = rightAligned ?? [0, header.count - 1]
        let table = [header] + rows
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { row in
            let cells = row.enumerated().map { column, text in
                let padding = String(repeating: " ", count: widths[column] - text.count)
                return rightAligned.contains(column) ? padding + text : text + padding
            }
            let line = indent + cells.joined(separator: "  ")
            return String(line[..<(line.lastIndex { $0 != " " }.map(line.index(after:)) ?? line.startIndex)])
        }
    }

    /// A score with five decimals, as the tables show it.
    static func score(_ value: Float) -> String {
        String(format: "%.5f", value)
    }

    /// Whether `value` shows as zero at the tables' five decimals ("0.00000", or "-0.00000" for
    /// a tiny negative logit): a row that tells a reader nothing.
    static func showsAsZero(_ value: Float) -> Bool {
        ["0.00000", "-0.00000"].contains(score(value))
    }

    /// What stands for the rows a table left out because their `column` shows as zero: one line
    /// such as "(994 more with score 0.00000)", or none when no row was left out.
    static func omittedZeros(_ count: Int, column: String, indent: String) -> [String] {
        count == 0 ? [] : ["\(indent)(\(count) more with \(column) \(score(0)))"]
    }
}
