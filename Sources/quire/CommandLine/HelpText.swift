import Platform
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
        return [
            gettext("Usage:"),
            "  quire [OPTION...]          " + String(cFormat: gettext("Open the %s window"), Quire.name),
            "  quire VERB [ARGUMENT...]   " + gettext("Work with a library from the command line"),
            "",
            String(cFormat: gettext("%s is an offline-first article editor."), Quire.name),
            "",
            gettext("Verbs:"),
            verbLines.joined(separator: "\n"),
            "",
            gettext("Options:"),
            "  -h, --help                 " + gettext("Show this help"),
            "  --version                  " + gettext("Show the version"),
            "  --help-gapplication        " + gettext("Show the options of the window's process"),
            "",
            gettext("Every verb that takes an article ID also takes the start of one (at least four\ncharacters), and every verb that prints takes --json."),
            "",
            gettext("Exit status:"),
            "  0   " + gettext("success"),
            "  1   " + gettext("failure (the message says what went wrong; nothing was changed)"),
            "  2   " + gettext("usage: the command line was wrong (an unknown verb or option, a missing\n      argument, the start of an ID that begins several; the message lists them)"),
            "  " + gettext("'quire sync' adds 69, 75 and 76 ('quire help sync'); 'quire edit --if-revision'\n  and 'quire resolve --if-kind' add 75 (it changed since it was read)."),
            "",
            gettext("'quire help VERB' shows how to use a verb."),
        ].joined(separator: "\n")
    }

    /// One verb's usage line and summary, and its details unless `briefly` (after a usage error).
    static func usage(of verb: any Verb.Type, briefly: Bool = false) -> String {
        let usage = verb.usage.isEmpty ? "" : " \(verb.usage)"
        let details = verb.details.isEmpty || briefly ? "" : "\n\n" + verb.details
        return String(cFormat: gettext("Usage: quire %1$s%2$s"), verb.name, usage) + "\n\n" + verb.summary + "." + details
    }
}
