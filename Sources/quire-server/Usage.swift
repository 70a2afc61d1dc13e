import Foundation
import SyncServer

/// The usage text and the manual page, both made from the verb list below and the option table
/// (`ServerOption`), so that neither can fall behind the other.
enum Usage {
    /// A verb: its synopsis after `quire-server` and what it does.
    struct Verb {
        let synopsis: String
        let summary: String

        /// The word after `quire-server`.
        var name: String { String(synopsis.prefix { $0 != " " }) }
    }

    static let storage = "[--config FILE] [--data DIR | --postgres URL]"

    static let verbs: [Verb] = [
        Verb(synopsis: "serve [--config FILE] [OPTIONS]",
             summary: "Serves the sync API until SIGTERM or SIGINT; OPTIONS below. On SIGHUP it reads the configuration file "
                + "and the command line again and applies the settings marked \"SIGHUP applies a change\" (and the TLS "
                + "certificate, read again); every other change is logged as needing a restart, and a configuration with a "
                + "mistake is refused while the running one stays."),
        Verb(synopsis: "check-config [--config FILE] [OPTIONS]",
             summary: "Reads the configuration as serve would, opens the storage, prints every setting; exit 0 when serve would start."),
        Verb(synopsis: "account add NAME [--token-name NAME] \(storage)",
             summary: "Adds an account and prints its first token, named default unless told (shown only once; only its SHA-256 is stored)."),
        Verb(synopsis: "account list \(storage)", summary: "Lists the accounts."),
        Verb(synopsis: "account revoke NAME \(storage)",
             summary: "Stops every token of the account at once; its articles stay."),
        Verb(synopsis: "account delete NAME --confirm \(storage)",
             summary: "Removes the account and all its articles, revisions and tokens for good, and says what it removed."),
        Verb(synopsis: "token add ACCOUNT --name NAME \(storage)",
             summary: "Adds a token for one device and prints it (shown only once)."),
        Verb(synopsis: "token list ACCOUNT \(storage)",
             summary: "Lists the account's tokens: name, created, last used; never the token."),
        Verb(synopsis: "token revoke ACCOUNT NAME \(storage)",
             summary: "Stops that token at once; the account's other tokens keep working."),
        Verb(synopsis: "backup --out FILE \(storage)",
             summary: "Writes a consistent copy of a SQLite database to FILE while servers go on serving (PostgreSQL: use pg_dump)."),
        Verb(synopsis: "restore [--from FILE] \(storage)",
             summary: "With no server running: puts the SQLite backup FILE in place of the database (the replaced one is kept beside it); "
                + "without --from, after pg_restore of a PostgreSQL database. Either way every client resyncs once."),
        Verb(synopsis: "help [VERB | --man | --config]",
             summary: "Prints this text, a verb's help (as VERB --help does), the manual page in troff, or a configuration file "
                + "with every setting commented out."),
    ]

    static let description = """
        The sync server for Quire libraries. Listens on 127.0.0.1:\(ListenAddress.defaultPort) unless told otherwise; keeps \
        its data in SQLite (--data) or PostgreSQL (--postgres). Settings come from --config FILE (one \
        "name = value" a line, names as the options below without their dashes, # for comments) and \
        then from the command line, which overrides the file. Options are --name VALUE or --name=VALUE, each \
        given once; quire-server VERB --help shows one verb. Durations: 30d, 12h, 15m, 10s. Exit status: 0 \
        success, 1 failure, 2 a command line or configuration that cannot be used (the message names it).
        """

    static var text: String {
        var lines = ["usage:"]
        for verb in verbs { lines.append("  quire-server \(verb.synopsis)") }
        lines += ["", wrap(description, indent: ""), "", "verbs:"]
        for verb in verbs {
            lines.append("  \(verb.synopsis)")
            lines.append(wrap(verb.summary, indent: "      "))
        }
        lines += ["", "options (default in brackets):"] + optionLines
        return lines.joined(separator: "\n")
    }

    /// The usage lines of one verb (`account` has four), for a usage error.
    static func synopses(of name: String) -> String {
        verbs.filter { $0.name == name }.map { "usage: quire-server \($0.synopsis)" }.joined(separator: "\n")
    }

    /// `quire-server VERB --help`: the verb's forms, what each does, and the options it reads;
    /// nil for a word that is no verb.
    static func help(of name: String) -> String? {
        let forms = verbs.filter { $0.name == name }
        guard !forms.isEmpty else { return nil }
        var lines = [synopses(of: name), ""]
        for verb in forms {
            lines.append("  \(verb.synopsis)")
            lines.append(wrap(verb.summary, indent: "      "))
        }
        if ["serve", "check-config"].contains(name) {
            lines += ["", "options (default in brackets):"] + optionLines
        }
        return lines.joined(separator: "\n")
    }

    private static var optionLines: [String] {
        ServerOption.serve.flatMap { option in
            ["  --\(option.name) \(option.placeholder)" + (option.defaultValue.map { "  [\($0)]" } ?? ""),
             wrap(option.summary, indent: "      ")]
        }
    }

    /// A configuration file naming every setting with its default, commented out, for an
    /// operator to start from.
    static var configurationFile: String {
        var lines = [
            "# quire-server configuration: one \"name = value\" a line; the command line overrides it.",
            "# Every setting is shown commented out with its default. Durations: 30d, 12h, 15m, 10s.",
        ]
        for option in ServerOption.serve {
            lines += ["", wrap(option.summary, indent: "# "), "#\(option.name) = \(option.defaultValue ?? option.placeholder)"]
        }
        return lines.joined(separator: "\n")
    }

    /// `quire-server.1`, for `man`.
    static var manualPage: String {
        var page = [
            ".TH QUIRE-SERVER 1 \"\" \"quire-server\" \"User Commands\"",
            ".SH NAME",
            "quire-server \\- the sync server for Quire libraries",
            ".SH SYNOPSIS",
        ]
        for verb in verbs { page += [".B quire-server", troff(verb.synopsis), ".br"] }
        page += [".SH DESCRIPTION", troff(description), ".SH COMMANDS"]
        for verb in verbs { page += [".TP", ".B \(troff(verb.synopsis))", troff(verb.summary)] }
        page += [".SH OPTIONS"]
        for option in ServerOption.serve {
            page += [".TP", ".BI \\-\\-\(troff(option.name)) \" \(troff(option.placeholder))\"",
                     troff(option.summary + (option.defaultValue.map { " (default: \($0))" } ?? ""))]
        }
        page += [".SH FILES", ".TP", ".I /etc/quire-server/config",
                 "The configuration the Debian package's service reads.",
                 ".TP", ".I /var/lib/quire-server", "The data folder of the Debian package's service.",
                 ".SH ENVIRONMENT", ".TP", ".B LISTEN_FDS, LISTEN_PID",
                 "Set by systemd's socket activation (quire\\-server.socket): serve then serves the one socket passed, "
                    + "and listen is not used.",
                 ".SH SEE ALSO", ".BR quire (1)"]
        return page.joined(separator: "\n")
    }

    /// `text` escaped for troff: backslashes doubled, a leading dot or quote protected.
    private static func troff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// `text` broken into lines of at most 100 characters, each after `indent`.
    private static func wrap(_ text: String, indent: String) -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > 100, line != indent {
                lines.append(line)
                line = indent
            }
            line += (line == indent ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
