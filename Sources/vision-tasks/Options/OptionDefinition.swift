/// One row of a command's option table: what parsing and `--help` need to know about an
/// option. The typed declarations (`Option`, `RepeatedOption`, `Flag`) each carry one; a
/// command's table is the list of its groups' rows, in the order `--help` shows them.
///
/// The shape is swift-argument-parser's: a row is what `@Option(name:help:)` or `@Flag`
/// declares (a long name, an optional short name, a value name, a help line, a default shown
/// in the help), so that moving to that package is a mechanical rewrite.
struct OptionDefinition: Sendable {
    /// How many values an option takes.
    enum Arity: Sendable {
        /// No value: present or not (`--verbose`).
        case flag
        /// One value; given several times, the last counts (`--threads 2`).
        case single
        /// One value each time; every value counts (`--allow a --allow b`).
        case repeating
    }

    /// The long name, without dashes ("max-results").
    let name: String
    /// A one-letter name used with one dash ("h" for `-h`), if any.
    let shortName: Character?
    let arity: Arity
    /// What the value is called in the help ("N", "PATH"); nil for flags.
    let valueName: String?
    /// The help text: one or more sentences, wrapped by the help formatter.
    let help: String
    /// The default as the help shows it ("5", "en"), or nil when there is none to show.
    let defaultDescription: String?

    init(
        name: String, shortName: Character? = nil, arity: Arity, valueName: String? = nil, help: String,
        defaultDescription: String? = nil
    ) {
        self.name = name
        self.shortName = shortName
        self.arity = arity
        self.valueName = valueName
        self.help = help
        self.defaultDescription = defaultDescription
    }

    /// The option as users type it: "--max-results".
    var spelling: String { "--" + name }

    /// The help's first column: "--threads N", "-h, --help".
    var synopsis: String {
        let names = (shortName.map { "-\($0), " } ?? "") + spelling
        return valueName.map { "\(names) \($0)" } ?? names
    }

    /// The help's second column: the help text, then the default.
    var helpText: String {
        defaultDescription.map { "\(help) (default: \($0))" } ?? help
    }
}
