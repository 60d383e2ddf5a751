/// Renders `--help` texts from command configurations and option tables, so that the help
/// lists exactly what the parser accepts.
enum HelpFormatter {
    /// The width option help is wrapped to.
    static let width = 94
    /// The column option help starts at (after two spaces and the synopsis column).
    static let helpColumn = 27

    /// A command's help: usage, discussion, options, epilogue.
    static func help(_ configuration: CommandConfiguration, options: [OptionDefinition]) -> String {
        """
        USAGE: \(configuration.usage)

        \(configuration.discussion)

        OPTIONS:
        \(options.map(optionLines).joined(separator: "\n"))

        \(configuration.epilogue)
        """
    }

    /// The tool's usage: each command's name and abstract.
    static func toolUsage(_ commands: [CommandConfiguration]) -> String {
        let nameWidth = commands.map(\.commandName.count).max() ?? 0
        let list = commands.map { "  " + pad($0.commandName, to: nameWidth) + "  " + $0.abstract }
        return """
            USAGE: vision-tasks COMMAND [options]

            COMMANDS:
            \(list.joined(separator: "\n"))

            Run `vision-tasks COMMAND --help` for a command's options, `vision-tasks --version` for the
            tool's and LiteRT's versions.
            """
    }

    /// One option's lines: the synopsis, then its help wrapped at `width`, continuation lines
    /// indented to the help column (the help starts on its own line when the synopsis is wide).
    static func optionLines(_ option: OptionDefinition) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        var lines = wrap(option.helpText, width: width - helpColumn).map { indent + $0 }
        let synopsis = "  " + option.synopsis
        if synopsis.count < helpColumn - 1, !lines.isEmpty {
            lines[0] = pad(synopsis, to: helpColumn) + lines[0].dropFirst(helpColumn)
        } else {
            lines.insert(synopsis, at: 0)
        }
        return lines.joined(separator: "\n")
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word gets its own line).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
