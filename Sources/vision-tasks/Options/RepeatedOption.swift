/// An option that may be given several times, each value counting. (swift-argument-parser's
/// `@Option(parsing: .singleValue) var names: [String] = []`.)
struct RepeatedOption: Sendable {
    let definition: OptionDefinition

    init(name: String, valueName: String, help: String) {
        definition = OptionDefinition(name: name, arity: .repeating, valueName: valueName, help: help)
    }
}
