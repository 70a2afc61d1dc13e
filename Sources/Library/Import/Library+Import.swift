import Foundation
import ObjectGraph

/// The store side of import: what the library holds for a plan, and carrying a plan out as
/// ordinary local edits (each article saved with its outbox operation).
extension Library {
    /// The library's articles with the IDs the scan brings, and every folder and tag name.
    public func importContents(for scan: ImportScan) async throws -> LibraryContents {
        let ids = scan.articles.filter(\.hasStoredID).map(\.article.id)
        return try await read { context in
            var articles: [ArticleSnapshot] = []
            for start in stride(from: 0, to: ids.count, by: 500) {
                var request = FetchRequest<StoredArticle>(predicate: .in(\.id, Array(ids[start..<min(ids.count, start + 500)])))
                request.prefetch(\.folder)
                request.prefetch(\.tags)
                articles += try context.fetch(request).map(\.snapshot)
            }
            let folders = Set(try context.fetch(FetchRequest<Folder>()).map(\.name))
            let tags = Set(try context.fetch(FetchRequest<Tag>()).map(\.name))
            return LibraryContents(articles: articles, folders: folders, tags: tags)
        }
    }

    /// Carries out `plan`: creates its folders and tags, then saves every article it writes,
    /// `batchSize` articles per save. New articles and copies start as local articles never synced
    /// (the server learns of them through their outbox operations); replaced ones keep their sync
    /// metadata. Dates come from the plan.
    @discardableResult
    public func apply(_ plan: ImportPlan, batchSize: Int = 200) async throws -> ImportResult {
        try await write { context, now in
            for name in plan.foldersToCreate { _ = try LibraryNames.folder(named: name, creatingIn: context, at: now) }
            for name in plan.tagsToCreate { _ = try LibraryNames.tag(named: name, creatingIn: context) }
        }
        let items = plan.writes
        var result = ImportResult()
        for start in stride(from: 0, to: items.count, by: max(1, batchSize)) {
            try Task.checkCancellation()
            let batch = Array(items[start..<min(items.count, start + max(1, batchSize))])
            result = result + (try await write { context, now in try Self.save(batch, in: context, at: now) })
        }
        return result
    }

    /// One batch of an import.
    private static func save(_ items: [ImportPlan.Item], in context: ManagedObjectContext, at now: Date) throws -> ImportResult {
        var result = ImportResult()
        for item in items {
            let imported = item.article
            let article: StoredArticle
            switch item.action {
            case .replace:
                article = try LibraryNames.article(imported.id, in: context)
                try VersionHistory.record(article, source: .beforeImport, at: now, in: context)
                result.replaced += 1
            case .create, .copy:
                article = StoredArticle(context: context)
                article.id = imported.id
                article.created = imported.created
                if case .copy = item.action { result.copied += 1 } else { result.created += 1 }
            case .skip, .unchanged:
                continue
            }
            try article.setContent(imported.content, at: now)
            if let history = imported.history {
                let isCopy = if case .copy = item.action { true } else { false }
                try VersionHistory.add(history, to: article.id, freshIDs: isCopy, in: context)
            }
            if article.updated != imported.updated { article.updated = imported.updated }
            if article.trashed != imported.trashed { article.trashed = imported.trashed }
        }
        try LocalChanges.record(in: context, at: now)
        return result
    }
}

/// What an import saved.
public struct ImportResult: Sendable, Hashable {
    /// New articles.
    public var created = 0
    /// Existing articles given the imported content.
    public var replaced = 0
    /// Articles imported as copies beside existing ones.
    public var copied = 0

    static func + (lhs: ImportResult, rhs: ImportResult) -> ImportResult {
        ImportResult(created: lhs.created + rhs.created, replaced: lhs.replaced + rhs.replaced, copied: lhs.copied + rhs.copied)
    }
}
