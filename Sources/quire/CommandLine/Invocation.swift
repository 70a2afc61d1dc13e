/// What a `quire` command line asks for, decided before anything starts (GTK included).
enum Invocation {
    /// Open the window. GApplication reads its own options (`--gapplication-service`, ...)
    /// from the arguments, which include the program name.
    case application(arguments: [String])
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
            self = .application(arguments: arguments)
            return
        }
        switch first {
        case "--version":
            self = .version
        case "-h", "--help":
            self = .help
        case _ where first.hasPrefix("-"):
            self = .application(arguments: arguments)
        default:
            guard let verb = verbs.first(where: { $0.name == first }) else { throw .unknownVerb(first) }
            let verbArguments = Array(rest.dropFirst())
            let beforeTerminator = verbArguments.prefix { $0 != "--" }
            if beforeTerminator.contains("--help") || beforeTerminator.contains("-h") {
                self = .verbHelp(verb)
            } else {
                self = .verb(verb, arguments: verbArguments)
            }
        }
    }
}
