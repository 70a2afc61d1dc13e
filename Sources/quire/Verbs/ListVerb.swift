import CommandLineArguments
import Foundation
import Library
import Platform
import SyncProtocol

/// `quire list`: the articles of a library, a folder, a search or the trash.
struct ListVerb: Verb {
    static let name = "list"
    static let summary = gettext("List the articles of a library, a folder, a tag, a status, a search or the trash")
    static let usage = "[--library PATH] [--folder NAME | --tag NAME | --favorites | --trash] [--status S] [--search WORDS] [--json]"
    static let details = [
        gettext("--folder, --tag, --favorites and --trash choose the articles (one of them; all outside the\ntrash by default); --status draft|ready|published keeps those of one status. --search\nfinds words in titles and bodies (each word as a prefix), and takes tag:NAME and\nstatus:NAME words as the app's search field does."),
        gettext("--json prints an array of objects: id, title, excerpt, folder, status, favorite,\nwordCount, created, updated, trashed and syncState."),
    ].joined(separator: "\n\n")

    let library: LibraryOption
    let query: ArticleQuery
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        let folder = try arguments.option("--folder")
        let tag = try arguments.option("--tag")
        let status = try arguments.option("--status").map { text throws(CommandLineError) in try StatusVerb.status(text, option: "--status") }
        let search = try arguments.option("--search")
        let trash = arguments.flag("--trash")
        let favorites = arguments.flag("--favorites")
        emitsJSON = arguments.flag("--json")
        let filters: [(String, ArticleQuery.Filter)] = [
            folder.map { ("--folder", .folder($0)) }, tag.map { ("--tag", .tag($0)) }, favorites ? ("--favorites", .favorites) : nil,
            trash ? ("--trash", .trash) : nil,
        ].compactMap { $0 }
        if filters.count > 1 {
            throw .conflictingOptions(filters[0].0, filters[1].0)
        }
        query = ArticleQuery(
            filter: filters.first?.1 ?? .all, searchText: search ?? "", status: status, order: search == nil ? .updated : .relevance)
    }

    func run() async throws {
        let library = try library.open()
        if case .folder(let name) = query.filter, try await !library.folders().contains(where: { $0.name == name }) {
            throw LibraryError.folderNotFound(name)
        }
        let articles = try await library.articles(matching: query)
        if emitsJSON {
            try VerbOutput.printJSON(articles.map(ListedArticle.init))
            return
        }
        var text = ""
        // The status column is as wide as the longest status in the reader's language.
        let statusWidth = ArticleStatus.allCases.map(\.word.count).max() ?? 0
        for article in articles {
            let title = article.title.isEmpty ? gettext("(untitled)") : article.title.replacingOccurrences(of: "\n", with: " ")
            let folder = article.folder.map { "  [\($0)]" } ?? ""
            let star = article.isFavorite ? "★ " : ""
            text += "\(article.id.uuidString.lowercased())  \(VerbOutput.date(article.updated))  "
                + article.status.word.padding(toLength: statusWidth, withPad: " ", startingAt: 0) + "  \(star)\(title)\(folder)\n"
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// One article of `quire list --json`.
struct ListedArticle: Encodable {
    let id: String
    let title: String
    let excerpt: String
    let folder: String?
    let status: ArticleStatus
    let favorite: Bool
    let wordCount: Int
    let created: Date
    let updated: Date
    let trashed: Date?
    let syncState: ArticleSyncState

    init(_ summary: ArticleSummary) {
        id = summary.id.uuidString.lowercased()
        title = summary.title
        excerpt = summary.excerpt
        folder = summary.folder
        status = summary.status
        favorite = summary.isFavorite
        wordCount = summary.wordCount
        created = summary.created
        updated = summary.updated
        trashed = summary.trashed
        syncState = summary.syncState
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, excerpt, folder, status, favorite, wordCount, created, updated, trashed, syncState
    }

    // Absent values are written as null, so every object has every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(excerpt, forKey: .excerpt)
        try container.encode(folder, forKey: .folder)
        try container.encode(status, forKey: .status)
        try container.encode(favorite, forKey: .favorite)
        try container.encode(wordCount, forKey: .wordCount)
        try container.encode(created, forKey: .created)
        try container.encode(updated, forKey: .updated)
        try container.encode(trashed, forKey: .trashed)
        try container.encode(syncState, forKey: .syncState)
    }
}
