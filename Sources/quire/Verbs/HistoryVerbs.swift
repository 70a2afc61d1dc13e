import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire history ID`: an article's earlier versions, newest first.
struct HistoryVerb: Verb {
    static let name = "history"
    static let summary = gettext("List an article's earlier versions, newest first")
    static let usage = "[--library PATH] [--json] ID"
    static let details = [
        gettext("Quire records a version when an editing session ends (leaving an article in the window,\nquitting, a long pause; each 'quire new' and 'quire edit'), when 'quire sync' brings in\nanother device's text, and before a conflict's resolution, an import or a restored version\nreplaces the text. Older versions are thinned: every version of the last day, then one an\nhour for a week, one a day for a month, one a week before that. Versions stay on this\ndevice (they are not synced)."),
        gettext("Prints one line per version: its ID (the first 8 characters; 'quire restore-version'\ntakes them), when, why (this device, synced, before conflict, before import, before\nrestore), its words and the change in words from the version before it. --json prints an\narray of objects: id, recorded, source (edited, synced, beforeConflict, beforeImport,\nbeforeRestore), title, size (bytes) and wordCount."),
    ].joined(separator: "\n\n")

    let library: LibraryOption
    let articleID: String
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        articleID = try arguments.positional("ID")
    }

    func run() async throws {
        let library = try library.open()
        let versions = try await library.history(of: try await library.articleID(matching: articleID))
        if emitsJSON {
            try VerbOutput.printJSON(versions.map(ListedVersion.init))
            return
        }
        var text = ""
        for (index, version) in versions.enumerated() {
            let previous = index + 1 < versions.count ? versions[index + 1].wordCount : nil
            let change = previous.map { version.wordCount - $0 }.map { $0 == 0 ? "±0" : $0 > 0 ? "+\($0)" : "\($0)" } ?? "first"
            text += "\(version.id.uuidString.lowercased().prefix(8))  \(VerbOutput.date(version.recorded))  "
                + version.source.label.translated.padding(toLength: 15, withPad: " ", startingAt: 0)
                + "  \(String(version.wordCount).leftPadded(to: 6)) words  \(change.leftPadded(to: 6))  \(version.title)\n"
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// `quire restore-version ID VERSION`: gives an article the text of one of its versions.
struct RestoreVersionVerb: Verb {
    static let name = "restore-version"
    static let summary = gettext("Give an article the title and body of an earlier version")
    static let usage = "[--library PATH] [--json] ID VERSION"
    static let details = gettext("VERSION is a version's ID or its start, as 'quire history ID' lists them. The restore is an\nedit like any other (sent at the next 'quire sync'); the text it replaces is kept as a\nversion first, and no version is changed or removed. Prints the article's ID and the\nversion restored; with --json the article as 'quire show --json' prints it.")

    let library: LibraryOption
    let articleID: String
    let versionID: String
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        articleID = try arguments.positional("ID")
        versionID = try arguments.positional("VERSION")
    }

    func run() async throws {
        let library = try library.open()
        let id = try await library.articleID(matching: articleID)
        let version = try await library.versionID(matching: versionID, of: id)
        let article = try await library.restoreVersion(version)
        try ChangedArticle.print(article, field: String(cFormat: gettext("restored version %s"), version.uuidString.lowercased().prefix(8)), asJSON: emitsJSON)
    }
}

/// One version of `quire history --json`.
struct ListedVersion: Encodable {
    let id: String
    let recorded: Date
    let source: ArticleVersionSource
    let title: String
    let size: Int
    let wordCount: Int

    init(_ version: ArticleVersionSummary) {
        id = version.id.uuidString.lowercased()
        recorded = version.recorded
        source = version.source
        title = version.title
        size = version.size
        wordCount = version.wordCount
    }
}
