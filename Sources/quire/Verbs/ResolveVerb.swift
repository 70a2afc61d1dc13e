import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire resolve ID --keep mine|theirs|both|merged`: carries out the writer's decision on a
/// conflict (pushed at the next `quire sync`), against the article as it stands.
struct ResolveVerb: Verb {
    static let name = "resolve"
    static let summary = gettext("Resolve a conflict: keep this device's version, the server's, both, or a merged one")
    static let usage = "[--library PATH] ID --keep mine|theirs|both|merged [--merged-file F|-] [--title T] [--if-kind KIND] [--json]"
    static let details = [
        gettext("ID is the conflict's ID, or the ID of its article when that has one open conflict (either\nwhole or its start), as 'quire conflicts' lists them."),
        gettext("Each choice is carried out against the article as it stands now (in the library or in the\ntrash), whatever 'quire conflicts' showed before:\n  --keep mine     Send this device's version over the server's; after a deletion on the\n                  server, put it back there. An article deleted here stays deleted: the\n                  deletion goes over the server's edit.\n  --keep theirs   Take the server's version (an article deleted here comes back with it).\n                  This device's text, when the server's version would drop it and it is\n                  not what it was when the conflict was found, is first kept as\n                  \"Title (conflicted copy)\", in the library or, for an article in the\n                  trash, in the trash. After a deletion on the server, move the article\n                  to the trash.\n  --keep both     Take the server's version and keep this device's as \"Title (conflicted\n                  copy)\" (edits on both sides only).\n  --keep merged   Save the body in --merged-file (- for standard input), the title of\n                  --title or else the merged one, and send it over the server's version."),
        gettext("--if-kind KIND carries the choice out only while the conflict is still of that kind, as\n'quire conflicts --json' gave it (editedOnBothSides, deletedHere, deletedOnServer): mine\ndeletes an article deleted here, but sends the text of one restored since. When it changed,\nnothing is changed, the message says what it is now, and the exit status is 75: look at it\nagain and decide."),
        gettext("Prints what happened; with --json one object: conflictId, articleId, resolution, kind,\narticle and copy (each null, or id, title and inTrash), sends (put, delete or null: what\nthe next 'quire sync' sends for the article) and summary."),
    ].joined(separator: "\n\n")

    enum Keep: String {
        case mine, theirs, both, merged
    }

    let library: LibraryOption
    let conflictID: String
    let keep: Keep
    let mergedFile: String?
    let title: String?
    let kind: ConflictKind?
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        guard let keepText = try arguments.option("--keep") else { throw .missingArgument("--keep") }
        guard let keep = Keep(rawValue: keepText) else {
            throw .invalidValue(option: "--keep", value: keepText, expected: gettext("mine, theirs, both or merged"))
        }
        self.keep = keep
        mergedFile = try arguments.option("--merged-file")
        title = try arguments.option("--title")
        if let text = try arguments.option("--if-kind") {
            guard let kind = ConflictKind(rawValue: text) else {
                throw .invalidValue(
                    option: "--if-kind", value: text, expected: ConflictKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.kind = kind
        } else {
            kind = nil
        }
        emitsJSON = arguments.flag("--json")
        if keep == .merged, mergedFile == nil { throw .missingArgument(gettext("--merged-file (the merged body, for --keep merged)")) }
        if keep != .merged, let mergedFile { throw .invalidValue(option: "--merged-file", value: mergedFile, expected: gettext("used with --keep merged")) }
        if keep != .merged, let title { throw .invalidValue(option: "--title", value: title, expected: gettext("used with --keep merged")) }
        conflictID = try arguments.positional("ID")
    }

    func run() async throws {
        let library = try library.open()
        let conflict = try await library.conflict(matching: conflictID)
        // Mine and theirs mean the same to every kind of conflict; the library reads which applies
        // from the article as it stands when it saves the decision.
        let resolution: ConflictResolution
        switch keep {
        case .mine: resolution = .keepMine
        case .theirs: resolution = .keepTheirs
        case .both: resolution = .keepBoth
        case .merged:
            let body = try TextInput.read(mergedFile ?? "-", option: "--merged-file")
            resolution = .merged(Self.mergedContent(of: conflict, body: body, title: title))
        }
        let outcome: ConflictOutcome
        do {
            outcome = try await library.resolveConflict(conflict.id, resolution, ifKind: kind)
        } catch let error as LibraryError {
            guard case .conflictChanged = error else { throw error }
            throw ChangedSinceRead(message: error.text.translated)
        }
        if emitsJSON {
            try VerbOutput.printJSON(ResolvedConflict(outcome))
            return
        }
        var text = String(cFormat: gettext("resolved %1$s: %2$s"), conflict.id.uuidString.lowercased(), outcome.summary.translated)
        if let copy = outcome.copy { text += "\n" + String(cFormat: gettext("conflicted copy: %s"), copy.id.uuidString.lowercased()) }
        print(text)
    }

    /// The merged content: the writer's body, and every other field merged from both sides (this
    /// device's value where they conflict), the title unless given.
    static func mergedContent(of conflict: ConflictSnapshot, body: String, title: String?) -> ArticleContent {
        var content: ArticleContent
        if let base = conflict.base, let local = conflict.local, let remote = conflict.remote {
            content = ArticleMerge(base: base, mine: local, theirs: remote)
                .resolved(title: { _ in .mine }, body: { _ in .mine }, folder: .mine, status: .mine)
        } else {
            content = conflict.local ?? conflict.remote ?? ArticleContent(title: "", body: "")
        }
        content.body = body
        if let title { content.title = title }
        return content
    }

}

/// `quire resolve --json`.
struct ResolvedConflict: Encodable {
    /// An article the resolution left.
    struct Article: Encodable {
        let id: String
        let title: String
        let inTrash: Bool

        init(_ article: ArticleSnapshot) {
            id = article.id.uuidString.lowercased()
            title = article.title
            inTrash = article.trashed != nil
        }
    }

    let conflictID: String
    let articleID: String
    let resolution: ConflictResolution.Kind
    let kind: ConflictKind
    let article: Article?
    let copy: Article?
    let sends: String?
    let summary: String

    init(_ outcome: ConflictOutcome) {
        conflictID = outcome.conflictID.uuidString.lowercased()
        articleID = outcome.articleID.uuidString.lowercased()
        resolution = outcome.resolution
        kind = outcome.kind
        article = outcome.article.map(Article.init)
        copy = outcome.copy.map(Article.init)
        sends = outcome.sends?.rawValue
        summary = outcome.summary.english
    }

    private enum CodingKeys: String, CodingKey {
        case conflictID = "conflictId", articleID = "articleId", resolution, kind, article, copy, sends, summary
    }

    // Absent values are written as null, so every object has every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(conflictID, forKey: .conflictID)
        try container.encode(articleID, forKey: .articleID)
        try container.encode(resolution, forKey: .resolution)
        try container.encode(kind, forKey: .kind)
        try container.encode(article, forKey: .article)
        try container.encode(copy, forKey: .copy)
        try container.encode(sends, forKey: .sends)
        try container.encode(summary, forKey: .summary)
    }
}
