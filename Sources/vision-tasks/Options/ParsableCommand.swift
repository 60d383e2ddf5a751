/// A `vision-tasks` command: its configuration, its option table (its groups' tables), how it
/// reads its values, and what it does. (swift-argument-parser's `ParsableCommand`.)
protocol ParsableCommand: ParsableArguments {
    static var configuration: CommandConfiguration { get }

    /// Runs the command with its checked values.
    /// - Returns: the exit status: 0 when everything succeeded, 1 when anything failed.
    /// - Throws: `UsageError` for a mistake found only now (a folder without images), before
    ///   any model is loaded.
    func run() throws(UsageError) -> Int32

    /// Parses `arguments` and runs; a command with subcommands dispatches to them instead.
    static func main(_ arguments: [CommandLineArgument]) throws(UsageError) -> Int32
}

/// What a command says about itself in the help. (swift-argument-parser's `CommandConfiguration`.)
struct CommandConfiguration: Sendable {
    /// The name users type after `vision-tasks`.
    let commandName: String
    /// One line for the tool's command list.
    let abstract: String
    /// The usage line, after "USAGE: ".
    let usage: String
    /// What the command does, before the options (wrapped by hand).
    let discussion: String
    /// What follows the options: output and exit status (wrapped by hand).
    let epilogue: String
}

extension ParsableCommand {
    /// Everything the command accepts: its table, then `-h, --help`.
    static var completeOptionTable: [OptionDefinition] { optionTable + [StandardOptions.help.definition] }

    /// The command's help, rendered from its configuration and option table.
    static var helpText: String { HelpFormatter.help(configuration, options: completeOptionTable) }

    /// Parses `arguments`, prints the help when asked, reads and checks the values, then runs.
    /// - Returns: the exit status of `run()`, or 0 after printing the help.
    /// - Throws: `UsageError` (exit status 2), tagged with the command's name.
    static func main(_ arguments: [CommandLineArgument]) throws(UsageError) -> Int32 {
        do {
            let parsed = try ParsedArguments(arguments, table: completeOptionTable)
            if parsed.isSet(StandardOptions.help) {
                print(helpText)
                return 0
            }
            let command = try Self(parsed)
            try command.validate()
            return try command.run()
        } catch {
            throw UsageError(error.message, command: configuration.commandName)
        }
    }
}
