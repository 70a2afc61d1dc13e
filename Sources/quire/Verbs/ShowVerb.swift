import CommandLineArguments
import Foundation
import Library
import Transfer

/// `quire show ID`: one article, its fields and its Markdown.
struct ShowVerb: Verb {
    static let name = "show"
    static let summary = "Show an article (ID or the start of one)"
    static let usage = "[--library PATH] [--json] ID"
    static let details = """
        Prints the title, the fields and the body. "Revision" is the article's revision in this
        library, which every change saved here and every other content 'quire sync' brings in
        bumps (what 'quire edit --if-revision' checks).

        --json prints one object as the JSON archive holds an article: id (lower case), title, body,
        folder, tags, status, favorite, created, updated, trashed, and sync: serverRevision,
        localRevision (the revision above) and state.
        """

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
        var lines = [
            article.title.isEmpty ? "(untitled)" : article.title,
            "ID:       \(article.id.uuidString.lowercased())",
            "Folder:   \(article.folder ?? "—")",
            "Tags:     \(article.tags.isEmpty ? "—" : article.tags.joined(separator: ", "))",
            "Status:   \(article.status.rawValue)\(article.isFavorite ? ", favorite" : "")",
            "Created:  \(VerbOutput.date(article.created))",
            "Updated:  \(VerbOutput.date(article.updated))",
        ]
        if let trashed = article.trashed { lines.append("Trashed:  \(VerbOutput.date(trashed))") }
        lines.append("Revision: \(article.localRevision)")
        let serverRevision = article.serverRevision.map { ", server revision \($0)" } ?? ""
        lines.append("Sync:     \(article.syncState.rawValue)\(serverRevision)")
        let ending = article.body.hasSuffix("\n") || article.body.isEmpty ? "" : "\n"
        let text = lines.joined(separator: "\n") + "\n\n" + article.body + ending
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
