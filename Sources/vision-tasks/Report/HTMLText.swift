/// Text from files and models made safe for the report's HTML: nothing a file name, category
/// name or error message holds can become markup.
enum HTMLText {
    /// `text` for an element's content or a double-quoted attribute: `&`, `<`, `>`, `"` and `'`
    /// as character references, and the C0 control characters other than tab and newline as
    /// numeric references (a carriage return would otherwise be read as a newline).
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "&#\(scalar.value);"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A name as the page shows it: control characters as Swift escapes (`TableText`), then
    /// escaped for HTML.
    static func shown(_ text: String) -> String {
        escaped(TableText.escaped(text))
    }
}
