extension OutputFormat {
    /// The `--format` option of a command that prints the formats in `allowed` (default table).
    /// - Parameter help: what each format prints for this command.
    static func option(allowing allowed: [OutputFormat], help: String) -> Option<OutputFormat> {
        Option(name: "format", valueName: "FORMAT", help: help, default: .table, defaultDescription: "table") {
            text throws(UsageError) in
            guard let format = OutputFormat(rawValue: text) else {
                throw UsageError("--format must be one of \(allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
            }
            guard allowed.contains(format) else {
                throw UsageError("--format must be \(allowed.map(\.rawValue).joined(separator: " or ")), got '\(text)'")
            }
            return format
        }
    }
}
