import CommandLineArguments
import Foundation
import Platform

/// What a `quire` command line asks for, decided before anything starts (GTK included).
enum Invocation {
    /// Open the window over the library at `library` (nil: the default library). GApplication
    /// reads its own options (`--gapplication-service`, ...) from the arguments, which include
    /// the program name; `--library PATH` is taken out of them.
    case application(arguments: [String], library: URL?)
    /// `quire --version`.
    case version
    /// `quire --help`.
    case help
    /// `quire VERB --help`.
    case verbHelp(any Verb.Type)
    /// `quire VERB ARGUMENTS...`, with the arguments after the verb's name.
    case verb(any Verb.Type, arguments: [String])

    /// Reads a full command line, program name first.
    init(arguments: [String], verbs: [any Verb.Type] = Verbs.all) throws(CommandLineError) {
        let rest = Array(arguments.dropFirst())
        guard let first = rest.first else {
            self = .application(arguments: arguments, library: nil)
            return
        }
        switch first {
        case "--version":
            self = .version
        case "-h", "--help":
            self = .help
        case _ where first.hasPrefix("-"):
            self = try Self.application(arguments: arguments)
        default:
            guard let verb = verbs.first(where: { $0.name == first }) else { throw .unknownVerb(first) }
            let verbArguments = Array(rest.dropFirst())
            if VerbArguments.asksForHelp(verbArguments) {
                self = .verbHelp(verb)
            } else {
                self = .verb(verb, arguments: verbArguments)
            }
        }
    }

    /// The window's invocation: `--library PATH` (or `--library=PATH`) taken out of the arguments.
    private static func application(arguments: [String]) throws(CommandLineError) -> Invocation {
        var remaining: [String] = []
        var library: URL?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--library" || argument.hasPrefix("--library=") {
                let path: String
                if argument == "--library" {
                    guard index + 1 < arguments.count else { throw .missingValue(option: "--library") }
                    path = arguments[index + 1]
                    index += 1
                } else {
                    path = String(argument.dropFirst("--library=".count))
                }
                guard !path.isEmpty else { throw .invalidValue(option: "--library", value: path, expected: gettext("a file path")) }
                library = URL(fileURLWithPath: path)
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        return .application(arguments: remaining, library: library)
    }
}
