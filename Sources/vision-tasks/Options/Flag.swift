/// An option without value: present or not. (swift-argument-parser's `@Flag var name = false`.)
struct Flag: Sendable {
    let definition: OptionDefinition

    init(name: String, shortName: Character? = nil, help: String) {
        definition = OptionDefinition(name: name, shortName: shortName, arity: .flag, help: help)
    }
}
