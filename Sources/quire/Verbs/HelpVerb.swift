import CommandLineArguments
import Platform

/// `quire help [VERB]`: the overview, or how to use one verb.
struct HelpVerb: Verb {
    static let name = "help"
    static let summary = gettext("Show how to use quire or one of its verbs")
    static let usage = "[VERB]"

    /// The verb asked about, or nil for the overview.
    let verbName: String?

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        verbName = arguments.positional()
    }

    func run() async throws {
        guard let verbName else {
            print(HelpText.overview())
            return
        }
        guard let verb = Verbs.named(verbName) else { throw CommandLineError.unknownVerb(verbName) }
        print(HelpText.usage(of: verb))
    }
}
