/// A small command-line parser: `--name value` / `--name=value` options, `--flag`s, and
/// positional arguments. The toolchain has no argument-parser package, and these commands
/// need only this much.
struct ParsedArguments {
    /// Option values by name (without dashes), in the order given; repeated options keep all values.
    private(set) var options: [String: [String]] = [:]
    /// Flags that were present.
    private(set) var flags: Set<String> = []
    /// Arguments that are not options.
    private(set) var positionals: [String] = []

    /// Parses `arguments` given the names of the options that take a value and of the flags.
    /// - Throws: `UsageError` for an unknown option or an option missing its value.
    init(_ arguments: [String], valueOptions: Set<String>, flags knownFlags: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !onlyPositionals, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            let body = argument.drop { $0 == "-" }
            let (name, inlineValue) = body.firstIndex(of: "=").map {
                (String(body[..<$0]), Optional(String(body[body.index(after: $0)...])))
            } ?? (String(body), nil)
            if knownFlags.contains(name), inlineValue == nil {
                flags.insert(name)
            } else if valueOptions.contains(name) {
                guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else {
                    throw UsageError("option --\(name) needs a value")
                }
                if inlineValue == nil { index += 1 }
                options[name, default: []].append(value)
            } else {
                throw UsageError("unknown option \(argument)")
            }
        }
    }

    /// The last value of an option, or nil.
    func value(_ name: String) -> String? { options[name]?.last }

    /// An integer option, or `defaultValue` when absent.
    /// - Throws: `UsageError` when the value is not an integer or not in `range`.
    func int(_ name: String, default defaultValue: Int, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text) else { throw UsageError("--\(name) expects an integer, got '\(text)'") }
        guard range.contains(number) else {
            throw UsageError("--\(name) must be \(range.upperBound == Int.max ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"), got \(number)")
        }
        return number
    }

    /// A floating-point option, or `defaultValue` when absent.
    /// - Throws: `UsageError` when the value is not a number.
    func float(_ name: String, default defaultValue: Float) throws(UsageError) -> Float {
        guard let text = value(name) else { return defaultValue }
        guard let number = Float(text), number.isFinite else { throw UsageError("--\(name) expects a number, got '\(text)'") }
        return number
    }
}

/// A mistake in how the command was called: printed with a hint to use --help; exit status 2.
struct UsageError: Error {
    let message: String
    /// The command whose help to point to ("classify"), or nil for the tool's.
    var command: String?
    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
