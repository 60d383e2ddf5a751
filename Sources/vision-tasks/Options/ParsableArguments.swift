/// A group of options read together, such as the classifier options several commands share.
/// (swift-argument-parser's `ParsableArguments`, used there with `@OptionGroup`.)
protocol ParsableArguments {
    /// The group's option table, in the order `--help` lists them.
    static var optionTable: [OptionDefinition] { get }

    /// Reads the group's values; each value is checked by its option's transform.
    /// - Throws: `UsageError` for a missing required option or a malformed value.
    init(_ parsed: ParsedArguments) throws(UsageError)

    /// Checks values against one another, after every group was read.
    /// - Throws: `UsageError` for a combination that makes no sense.
    func validate() throws(UsageError)
}

extension ParsableArguments {
    func validate() throws(UsageError) {}
}
