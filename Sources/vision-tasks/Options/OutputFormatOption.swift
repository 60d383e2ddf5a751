extension OutputFormat {
    /// The `--format` option of a command that prints the formats in `allowed` (default table).
    /// - Parameter help: what each format prints for this command.
    static func option(allowing allowed: [OutputFormat], help: String) -> Option<OutputFormat> {
        Option(name: "format", valueName: "FORMAT", help: help, default: .table, defaultDescription: "table") {
            text throws(UsageError) in
            // The message lists this command's formats only, for an unknown word as for another command's format.
            guard let format = OutputFormat(rawValue: text), allowed.contains(format) else {
                let names = allowed.map(\.rawValue)
                let choices =
                    names.count > 2 ? "one of " + names.joined(separator: ", ") : names.joined(separator: " or ")
                throw UsageError("--format must be \(choices), got '\(text)'")
            }
            return format
        }
    }
}
