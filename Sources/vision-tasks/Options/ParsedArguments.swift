import TasksCommon

/// A command line split by a command's option table: `--name value`, `--name=value`, flags
/// (`--verbose`, `-h`), and positional arguments (everything else, and all after `--`).
///
/// Values are read through the typed declarations (`value(_:)`, `values(_:)`, `isSet(_:)`),
/// which apply the defaults and checks the table declares. A value option takes the next
/// argument whatever it looks like, so `--max-results -1` works.
struct ParsedArguments {
    /// The table the arguments were parsed with, by long name.
    private let table: [String: OptionDefinition]
    /// Values given, by long name, in order, byte for byte (`path(_:)`).
    private var given: [String: [CommandLineArgument]] = [:]
    /// Arguments that are not options, byte for byte.
    private(set) var positionals: [CommandLineArgument] = []

    /// Splits `arguments` according to `table`.
    /// - Throws: `UsageError` for an option not in the table, a value option without its
    ///   value, or a flag given a value.
    init(_ arguments: [CommandLineArgument], table definitions: [OptionDefinition]) throws(UsageError) {
        table = Dictionary(definitions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let shortNames = Dictionary(
            definitions.compactMap { definition in definition.shortName.map { ($0, definition) } },
            uniquingKeysWith: { first, _ in first })
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let text = argument.text
            guard !onlyPositionals, text.hasPrefix("-"), text != "-" else {
                positionals.append(argument)
                continue
            }
            if text == "--" {
                onlyPositionals = true
                continue
            }
            let body = text.hasPrefix("--") ? text.dropFirst(2) : text.dropFirst()
            let name = String(body.prefix { $0 != "=" })
            // The value after the first "=", from the bytes (the name before it is ASCII).
            let inlineValue = argument.bytes.firstIndex(of: UInt8(ascii: "=")).map {
                CommandLineArgument(bytes: Array(argument.bytes[($0 + 1)...]))
            }
            let definition = text.hasPrefix("--") ? table[name] : name.count == 1 ? shortNames[name.first!] : nil
            guard let definition else { throw UsageError("unknown option \(text)") }
            switch definition.arity {
            case .flag:
                guard inlineValue == nil else { throw UsageError("option \(definition.spelling) takes no value") }
                given[definition.name, default: []].append(CommandLineArgument(""))
            case .single, .repeating:
                guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError("option \(definition.spelling) needs a value")
                }
                if inlineValue == nil { index += 1 }
                given[definition.name, default: []].append(value)
            }
        }
    }

    /// Whether the option was given at all.
    func contains(_ definition: OptionDefinition) -> Bool {
        given[checked(definition).name] != nil
    }

    /// The option's value: the last one given, transformed, or the default when absent.
    /// - Throws: the transform's `UsageError` for a malformed or out-of-range value.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let argument = given[checked(option.definition).name]?.last else { return option.defaultValue }
        return try option.transform(argument.text)
    }

    /// The path option's value byte for byte (a name need not be UTF-8), or nil when absent.
    func path(_ option: Option<String?>) -> FileSystemPath? {
        given[checked(option.definition).name]?.last?.path
    }

    /// The option's value, which must be given.
    /// - Throws: `UsageError` "--name is required" when absent.
    func required<Value>(_ option: Option<Value?>) throws(UsageError) -> Value {
        guard let value = try value(option) else { throw UsageError("\(option.definition.spelling) is required") }
        return value
    }

    /// The path option's value byte for byte, which must be given.
    /// - Throws: `UsageError` "--name is required" when absent.
    func requiredPath(_ option: Option<String?>) throws(UsageError) -> FileSystemPath {
        guard let path = path(option) else { throw UsageError("\(option.definition.spelling) is required") }
        return path
    }

    /// Every value of a repeatable option, in order (empty when absent).
    func values(_ option: RepeatedOption) -> [String] {
        given[checked(option.definition).name]?.map(\.text) ?? []
    }

    /// Whether the flag was given.
    func isSet(_ flag: Flag) -> Bool {
        contains(flag.definition)
    }

    /// `definition`, after checking it is in the table (reading an undeclared option is a bug:
    /// it could never be given).
    private func checked(_ definition: OptionDefinition) -> OptionDefinition {
        precondition(table[definition.name] != nil, "--\(definition.name) is not in this command's option table")
        return definition
    }
}
