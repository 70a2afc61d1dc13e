/// The arguments after a verb's name, which the verb takes as it reads them: the one command-line
/// reader of `quire` and `quire-server`.
///
/// Options are `--name VALUE`, `--name=VALUE` or a flag `--name`, in any order; the rest are
/// positional arguments, in order. After `--` everything is positional. An option given twice,
/// an option without its value, and anything nobody read are usage errors (`CommandLineError`).
///
///     var arguments = VerbArguments(["alice", "--name=laptop", "--json"])
///     let account = try arguments.positional("ACCOUNT")   // "alice"
///     let name = try arguments.option("--name")           // "laptop"
///     let json = arguments.flag("--json")                 // true
///     try arguments.checkAllRead()
public struct VerbArguments: Sendable {
    private var options: [String]
    private var afterTerminator: [String]

    public init(_ arguments: [String]) {
        if let terminator = arguments.firstIndex(of: "--") {
            options = Array(arguments[..<terminator])
            afterTerminator = Array(arguments[(terminator + 1)...])
        } else {
            options = arguments
            afterTerminator = []
        }
    }

    /// The value of `--name VALUE` or `--name=VALUE`, or nil if the option is absent.
    public mutating func option(_ name: String) throws(CommandLineError) -> String? {
        var value: String?
        var index = options.startIndex
        while index < options.endIndex {
            let argument = options[index]
            if argument == name {
                guard value == nil else { throw .repeatedOption(name) }
                guard index + 1 < options.endIndex, !Self.isOption(options[index + 1]) else {
                    throw .missingValue(option: name)
                }
                value = options[index + 1]
                options.removeSubrange(index...index + 1)
            } else if argument.hasPrefix(name + "=") {
                guard value == nil else { throw .repeatedOption(name) }
                value = String(argument.dropFirst(name.count + 1))
                options.remove(at: index)
            } else {
                index += 1
            }
        }
        return value
    }

    /// Whether the flag `--name` is given.
    public mutating func flag(_ name: String) -> Bool {
        let count = options.count
        options.removeAll { $0 == name }
        return options.count != count
    }

    /// The next positional argument, or nil if none is left. Read options first: a positional
    /// argument is anything that does not start with `-` (a lone `-` does not count as an option).
    public mutating func positional() -> String? {
        if let index = options.firstIndex(where: { !Self.isOption($0) }) {
            return options.remove(at: index)
        }
        return afterTerminator.isEmpty ? nil : afterTerminator.removeFirst()
    }

    /// The next positional argument, which the verb needs; `name` is its name in the usage.
    public mutating func positional(_ name: String) throws(CommandLineError) -> String {
        guard let value = positional() else { throw .missingArgument(name) }
        return value
    }

    /// Every positional argument left, in order.
    public mutating func remainingPositionals() -> [String] {
        var values: [String] = []
        while let value = positional() { values.append(value) }
        return values
    }

    /// Throws for the first argument nobody read: an unknown option or an extra argument.
    public func checkAllRead() throws(CommandLineError) {
        if let option = options.first(where: Self.isOption) { throw .unknownOption(option) }
        if let extra = options.first ?? afterTerminator.first { throw .unexpectedArgument(extra) }
    }

    /// Whether `arguments` (the words after the verb) ask for the verb's help: `--help` or `-h`
    /// before any `--`.
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    private static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-"
    }
}
