import Platform

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

    /// The sentence, in the user's language where the program translates (`quire` does, after
    /// `Translation.start()`; under the C locale, as in `quire-server`, it is English).
    public var description: String {
        switch self {
        case .unknownVerb(let verb): String(cFormat: gettext("'%1$s' is not a %2$s verb"), verb, Self.program)
        case .unknownOption(let option): String(cFormat: gettext("unknown option '%s'"), option)
        case .repeatedOption(let option): String(cFormat: gettext("%s is given more than once"), option)
        case .missingValue(let option): String(cFormat: gettext("%s needs a value"), option)
        case .missingArgument(let name): String(cFormat: gettext("%s is missing"), name)
        case .unexpectedArgument(let argument): String(cFormat: gettext("unexpected argument '%s'"), argument)
        case let .invalidValue(option, value, expected): String(cFormat: gettext("%1$s '%2$s' is not %3$s"), option, value, expected)
        case let .conflictingOptions(first, second): String(cFormat: gettext("%1$s and %2$s cannot be given together"), first, second)
        case .invalidSetting(let sentence): sentence
        }
    }

    /// The name the program was started by (`quire`, `quire-server`), for messages.
    public static var program: String {
        // Linux always passes the program's path first; without one, the name it is installed by.
        String(CommandLine.arguments.first?.split(separator: "/").last ?? "quire")
    }
}
