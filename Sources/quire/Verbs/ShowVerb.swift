import CommandLineArguments
import Foundation
import Library
import Platform
import Transfer

/// `quire show ID`: one article, its fields and its Markdown.
struct ShowVerb: Verb {
    static let name = "show"
    static let summary = gettext("Show an article (ID or the start of one)")
    static let usage = "[--library PATH] [--json] ID"
    static let details = [
        gettext("Prints the title, the fields and the body. \"Revision\" is the article's revision in this\nlibrary, which every change saved here and every other content 'quire sync' brings in\nbumps (what 'quire edit --if-revision' checks)."),
        gettext("--json prints one object as the JSON archive holds an article: id (lower case), title, body,\nfolder, tags, status, favorite, created, updated, trashed, and sync: serverRevision,\nlocalRevision (the revision above) and state."),
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
        let article = try await library.article(try await library.articleID(matching: articleID))
        if emitsJSON {
            try VerbOutput.printJSON(ArchivedArticle(article, includingSync: true))
            return
        }
        let status = article.isFavorite ? String(cFormat: gettext("%s, favorite"), article.status.word) : article.status.word
        let sync = article.serverRevision.map { String(cFormat: gettext("%1$s, server revision %2$d"), article.syncState.word, $0) }
        var fields = [
            (gettext("ID:"), article.id.uuidString.lowercased()),
            (gettext("Folder:"), article.folder ?? "—"),
            (gettext("Tags:"), article.tags.isEmpty ? "—" : article.tags.joined(separator: ", ")),
            (gettext("Status:"), status),
            (gettext("Created:"), VerbOutput.date(article.created)),
            (gettext("Updated:"), VerbOutput.date(article.updated)),
        ]
        if let trashed = article.trashed { fields.append((gettext("Trashed:"), VerbOutput.date(trashed))) }
        fields.append((gettext("Revision:"), "\(article.localRevision)"))
        fields.append((gettext("Sync:"), sync ?? article.syncState.word))
        // The values start in one column, after the longest label of the writer's language.
        let width = (fields.map(\.0.count).max() ?? 0) + 1
        let lines = [article.title.isEmpty ? gettext("(untitled)") : article.title]
            + fields.map { label, value in label.padding(toLength: width, withPad: " ", startingAt: 0) + value }
        let ending = article.body.hasSuffix("\n") || article.body.isEmpty ? "" : "\n"
        let text = lines.joined(separator: "\n") + "\n\n" + article.body + ending
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
