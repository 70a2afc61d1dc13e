import Foundation
import ObjectGraph

/// The articles of an export scope, read from the library a batch at a time: the IDs are fixed
/// when the source is made (``Library/exportSource(for:includingHistory:)``), and each batch is one
/// fetch, so an export of 10,000 articles holds one batch in memory and sees the same articles on
/// every pass. (Transfer's export jobs take it as their `ArticleSource`.)
public struct LibraryArticleSource: Sendable {
    /// The library read from.
    public let library: Library
    /// The articles, in export order.
    public let ids: [UUID]
    /// Whether each article comes with its version history (``ArticleSnapshot/history``), for an
    /// archive written with it.
    public var includesHistory = false
    /// Why bytes no article of the library holds cannot be had, by their SHA-256: said of a
    /// reference to them instead of "the library holds no attachment with these bytes" (what a
    /// sync worker answered when the export asked it for them first).
    public var unheldProblems: [String: String] = [:]

    /// A source of these articles of `library`, in this order.
    public init(library: Library, ids: [UUID], includesHistory: Bool = false) {
        self.library = library
        self.ids = ids
        self.includesHistory = includesHistory
    }

    /// How many articles the source yields.
    public func articleCount() async throws -> Int { ids.count }

    /// The articles at positions `range` of the export order; those deleted since the source was
    /// made are left out.
    public func articles(in range: Range<Int>) async throws -> [ArticleSnapshot] {
        let wanted = Array(ids[range.clamped(to: ids.indices)])
        let includesHistory = includesHistory
        return try await library.read { context in
            var request = FetchRequest<StoredArticle>(predicate: .in(\.id, wanted))
            request.prefetch(\.folder)
            request.prefetch(\.tags)
            var found = Dictionary(
                try context.fetch(request).map { ($0.id, $0.snapshot) }, uniquingKeysWith: { first, _ in first })
            if includesHistory {
                let versions = FetchRequest<ArticleVersion>(predicate: .in(\.articleID, wanted), sortDescriptors: [.ascending(\.recorded)])
                for id in found.keys { found[id]?.history = [] }
                for version in try context.fetch(versions) { found[version.articleID]?.history?.append(version.snapshot) }
            }
            // Articles deleted since the job started are left out.
            return wanted.compactMap { found[$0] }
        }
    }
}

/// The store side of export (the writers are Transfer's).
extension Library {
    /// The articles of `scope` (as ``ExportScope/includes(_:)`` defines it), fixed now: selected
    /// articles in the order given, the others by title.
    /// With `includingHistory`, each article comes with its versions (for a JSON archive).
    public func exportSource(for scope: ExportScope, includingHistory: Bool = false) async throws -> LibraryArticleSource {
        let ids: [UUID] = try await read { context in
            let predicate: FetchPredicate<StoredArticle>
            switch scope {
            case .selected(let ids):
                let existing = Set(try context.fetchDictionaries(
                    FetchRequest<StoredArticle>(predicate: .in(\.id, ids)), propertiesToFetch: ["id"]
                ).compactMap { $0["id"] as? UUID })
                var seen = Set<UUID>()
                return ids.filter { existing.contains($0) && seen.insert($0).inserted }
            case .folder(let name): predicate = \.folder?.name == name && .isNil(\.trashed)
            case .drafts: predicate = \.status == .draft && .isNil(\.trashed)
            case .unsynced: predicate = \.syncState != .synced && .isNil(\.trashed)
            case .library: predicate = .isNil(\.trashed)
            }
            let request = FetchRequest<StoredArticle>(
                predicate: predicate, sortDescriptors: [.ascending(\.sortTitle), .ascending(\.created)])
            return try context.fetchDictionaries(request, propertiesToFetch: ["id"]).compactMap { $0["id"] as? UUID }
        }
        return LibraryArticleSource(library: self, ids: ids, includesHistory: includingHistory)
    }
}
