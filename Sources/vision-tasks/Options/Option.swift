/// An option that takes one value: its table row, its default, and how its text becomes a
/// checked value. (swift-argument-parser's `@Option(help:transform:) var name: Value = default`.)
struct Option<Value: Sendable>: Sendable {
    let definition: OptionDefinition
    /// The value when the option is absent.
    let defaultValue: Value
    /// Turns the given text into a value, or says why it cannot.
    let transform: @Sendable (String) throws(UsageError) -> Value

    /// - Parameters:
    ///   - name: the long name without dashes.
    ///   - valueName: what the help calls the value ("N").
    ///   - help: the help text.
    ///   - defaultValue: the value when the option is absent.
    ///   - defaultDescription: the default as the help shows it, or nil for none.
    ///   - transform: parses and checks the text (see `ValueParser`).
    init(
        name: String, valueName: String, help: String, default defaultValue: Value, defaultDescription: String? = nil,
        transform: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        definition = OptionDefinition(
            name: name, arity: .single, valueName: valueName, help: help,
            defaultDescription: defaultDescription)
        self.defaultValue = defaultValue
        self.transform = transform
    }
}

extension Option where Value == String? {
    /// A text option without default (nil when absent), such as a path.
    init(name: String, valueName: String, help: String, defaultDescription: String? = nil) {
        self.init(name: name, valueName: valueName, help: help, default: nil, defaultDescription: defaultDescription) { $0 }
    }
}
