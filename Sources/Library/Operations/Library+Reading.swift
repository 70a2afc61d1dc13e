import Foundation
import ObjectGraph

/// Reading the library: values for the command line and for the app's background work.
extension Library {
    /// The article with this ID.
    public func article(_ id: UUID) async throws -> ArticleSnapshot {
        try await read { context in try LibraryNames.article(id, in: context).snapshot }
    }

    /// The articles the query selects, as light summaries (bodies and tags are not read).
    public func articles(matching query: ArticleQuery) async throws -> [ArticleSummary] {
        try await read { context in
            try context.fetchDictionaries(query.fetchRequest, propertiesToFetch: ArticleSummary.properties)
                .compactMap(ArticleSummary.init(row:))
        }
    }

    /// How many articles the query selects.
    public func count(matching query: ArticleQuery) async throws -> Int {
        try await read { context in try context.count(for: query.fetchRequest) }
    }

    /// Every folder with the number of its articles outside the trash, by name.
    public func folders() async throws -> [FolderSummary] {
        try await read { context in try LibraryCounts.folders(in: context) }
    }

    /// How many articles each place of the sidebar holds (``LibraryCounts``).
    public func counts() async throws -> LibraryCounts {
        try await read { context in try LibraryCounts.read(in: context) }
    }

    /// Every tag name, by name.
    public func tagNames() async throws -> [String] {
        try await read { context in
            try context.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name, order: .localized)])).map(\.name)
        }
    }

    /// The ID of the article whose ID is `text`, or begins with it (at least four hexadecimal
    /// digits, case and dashes as in the ID's usual form), as the command line accepts IDs.
    /// An ambiguous beginning throws ``LibraryError/ambiguousArticleID(_:matches:)`` naming the
    /// candidates.
    public func articleID(matching text: String) async throws -> UUID {
        if let id = UUID(uuidString: text) {
            _ = try await article(id)
            return id
        }
        let ids = try await read { context in
            try context.fetchDictionaries(FetchRequest<StoredArticle>(), propertiesToFetch: ["id"]).compactMap { $0["id"] as? UUID }
        }
        return try IDPrefix(text).match(in: ids, noMatch: LibraryError.noArticleMatching(text)) {
            LibraryError.ambiguousArticleID(text, matches: $0)
        }
    }
}
