/// A command line `quire` cannot make sense of. Exits with status 2.
enum CommandLineError: Error, Equatable, CustomStringConvertible {
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

    var description: String {
        switch self {
        case .unknownVerb(let verb): "'\(verb)' is not a quire verb"
        case .unknownOption(let option): "unknown option '\(option)'"
        case .repeatedOption(let option): "\(option) is given more than once"
        case .missingValue(let option): "\(option) needs a value"
        case .missingArgument(let name): "\(name) is missing"
        case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
        case let .invalidValue(option, value, expected): "\(option) '\(value)' is not \(expected)"
        case let .conflictingOptions(first, second): "\(first) and \(second) cannot be given together"
        }
    }
}
