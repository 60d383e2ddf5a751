/// The options every command has.
enum StandardOptions {
    /// `-h`, `--help`: print the help and exit 0, whatever else is given.
    static let help = Flag(name: "help", shortName: "h", help: "Show this help.")

    /// `--verbose`: let LiteRT's messages through while the model is loaded (every command loads one).
    static let verbose = Flag(
        name: "verbose",
        help: "Show what LiteRT prints on stderr while loading the model (such as "
            + "\"INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\"); hidden otherwise.")
}
