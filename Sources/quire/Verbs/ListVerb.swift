import Foundation
import Library
import SyncProtocol

/// `quire list`: the articles of a library, a folder, a search or the trash.
struct ListVerb: Verb {
    static let name = "list"
    static let summary = "List the articles of a library, a folder, a search or the trash"
    static let usage = "[--library PATH] [--folder NAME] [--search WORDS] [--trash] [--json]"

    let library: LibraryOption
    let query: ArticleQuery
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        let folder = try arguments.option("--folder")
        let search = try arguments.option("--search")
        let trash = arguments.flag("--trash")
        emitsJSON = arguments.flag("--json")
        if folder != nil && trash { throw .invalidValue(option: "--folder", value: folder!, expected: "allowed with --trash") }
        let filter: ArticleQuery.Filter = trash ? .trash : folder.map { .folder($0) } ?? .all
        query = ArticleQuery(filter: filter, searchText: search ?? "", order: search == nil ? .updated : .relevance)
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
        for article in articles {
            let title = article.title.isEmpty ? "(untitled)" : article.title.replacingOccurrences(of: "\n", with: " ")
            let folder = article.folder.map { "  [\($0)]" } ?? ""
            let star = article.isFavorite ? "★ " : ""
            text += "\(article.id.uuidString.lowercased())  \(VerbOutput.date(article.updated))  "
                + article.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) + "  \(star)\(title)\(folder)\n"
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
