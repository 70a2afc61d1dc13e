import QuireUI

/// What `quire --help`, `quire help VERB` and `quire VERB --help` print.
enum HelpText {
    /// The overview: how to start the app, every verb with its summary, the options.
    static func overview(verbs: [any Verb.Type] = Verbs.all) -> String {
        // Summaries start in the same column as the options' descriptions below.
        let width = max((verbs.map { $0.name.count }.max() ?? 0) + 2, 27)
        let verbLines = verbs.map { verb in
            "  " + verb.name.padding(toLength: width, withPad: " ", startingAt: 0) + verb.summary
        }
        return """
            Usage:
              quire [OPTION...]          Open the \(Quire.name) window
              quire VERB [ARGUMENT...]   Work with a library from the command line

            \(Quire.name) is an offline-first article editor.

            Verbs:
            \(verbLines.joined(separator: "\n"))

            Options:
              -h, --help                 Show this help
              --version                  Show the version
              --help-gapplication        Show the options of the window's process

            Every verb that takes an article ID also takes the start of one (at least four
            characters), and every verb that prints takes --json.

            Exit status:
              0   success
              1   failure (the message says what went wrong; nothing was changed)
              2   usage: the command line was wrong (an unknown verb or option, a missing
                  argument, the start of an ID that begins several; the message lists them)
              'quire sync' adds 69, 75 and 76 ('quire help sync'); 'quire edit --if-revision'
              and 'quire resolve --if-kind' add 75 (it changed since it was read).

            'quire help VERB' shows how to use a verb.
            """
    }

    /// One verb's usage line and summary, and its details unless `briefly` (after a usage error).
    static func usage(of verb: any Verb.Type, briefly: Bool = false) -> String {
        let usage = verb.usage.isEmpty ? "" : " \(verb.usage)"
        let details = verb.details.isEmpty || briefly ? "" : "\n\n" + verb.details
        return """
            Usage: quire \(verb.name)\(usage)

            \(verb.summary).
            """ + details
    }
}
