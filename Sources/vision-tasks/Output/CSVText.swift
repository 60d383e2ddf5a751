/// RFC 4180 records: fields separated by commas; a field that holds a comma, a double quote,
/// a carriage return or a line feed is enclosed in double quotes, its quotes doubled. Records
/// end with a line feed (what Unix tools expect; spreadsheets, Python's csv module and pandas
/// read both endings).
enum CSVText {
    /// One record (without its line ending).
    static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }

    /// One field, quoted when it must be.
    static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A })
        else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
