/// A mistake in how the command was called: printed with a hint to use --help; exit status 2.
/// (ArgumentParser's `ValidationError`.)
struct UsageError: Error {
    let message: String
    /// The command whose help to point to ("classify"), or nil for the tool's.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
