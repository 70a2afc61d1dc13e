/// A command line that cannot be run: the program prints it with the usage and exits with
/// status 2. Each case names the argument that is wrong.
public enum CommandLineError: Error, Equatable, CustomStringConvertible {
    case unknownVerb(String)
    case unknownOption(String)
    case repeatedOption(String)
    case missingValue(option: String)
    case missingArgument(String)
    case unexpectedArgument(String)
    /// An option's value is not of the kind the verb needs.
    case invalidValue(option: String, value: String, expected: String)
    /// Two options that exclude each other.
    case conflictingOptions(String, String)
    /// A setting that cannot be used, in a sentence that names it (and the line of the
    /// configuration file it came from, if it did).
    case invalidSetting(String)

    public var description: String {
        switch self {
        case .unknownVerb(let verb): "'\(verb)' is not a \(Self.program) verb"
        case .unknownOption(let option): "unknown option '\(option)'"
        case .repeatedOption(let option): "\(option) is given more than once"
        case .missingValue(let option): "\(option) needs a value"
        case .missingArgument(let name): "\(name) is missing"
        case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
        case let .invalidValue(option, value, expected): "\(option) '\(value)' is not \(expected)"
        case let .conflictingOptions(first, second): "\(first) and \(second) cannot be given together"
        case .invalidSetting(let sentence): sentence
        }
    }

    /// The name the program was started by (`quire`, `quire-server`), for messages.
    public static var program: String {
        String(CommandLine.arguments.first?.split(separator: "/").last ?? "the program's")
    }
}
