import Foundation
import ObjectGraph

/// Writes articles' version histories, inside the caller's transaction (a library operation, the
/// sync worker's, a resolution's, an import's): the one place that records, thins and trims
/// versions. A version never changes the article, its revision or its outbox.
enum VersionHistory {
    /// Records `title` and `body` as a version of the article, unless its latest version holds
    /// exactly that text already, and thins the article's older versions (``HistoryThinning``).
    /// Returns the new version, nil when nothing was recorded.
    ///
    /// `wordCount` is the body's, when the caller has just counted it (the body is parsed again
    /// otherwise). `firstOfArticle` says the article was created in this transaction and never
    /// had a row before, so no version of it can exist: neither the latest version nor the ones
    /// to thin are looked up (a sync's first pull records thousands of these).
    @discardableResult
    static func record(
        articleID: UUID, title: String, body: String, wordCount: Int? = nil, firstOfArticle: Bool = false,
        source: ArticleVersionSource, at now: Date, thinning: HistoryThinning = .standard, in context: ManagedObjectContext
    ) throws -> ArticleVersion? {
        if !firstOfArticle {
            let latest = FetchRequest<ArticleVersion>(
                predicate: \.articleID == articleID, sortDescriptors: [.descending(\.recorded)], fetchLimit: 1)
            if let last = try context.fetch(latest).first, last.title == title, last.body == body { return nil }
            try thin(articleID, adding: now, thinning: thinning, in: context)
        }
        return insert(ArticleVersionSnapshot(
            id: UUID(), articleID: articleID, recorded: now, source: source, title: title, body: body,
            size: title.utf8.count + body.utf8.count, wordCount: wordCount ?? ArticleText.wordCount(of: body)), in: context)
    }

    /// A new version row holding `snapshot`.
    @discardableResult
    private static func insert(_ snapshot: ArticleVersionSnapshot, in context: ManagedObjectContext) -> ArticleVersion {
        let version = ArticleVersion(context: context)
        version.id = snapshot.id
        version.articleID = snapshot.articleID
        version.recorded = snapshot.recorded
        version.source = snapshot.source
        version.title = snapshot.title
        version.body = snapshot.body
        version.size = snapshot.size
        version.wordCount = snapshot.wordCount
        return version
    }

    /// Records the article's text as it stands in the context (before a change replaces it, or
    /// when an editing session ends). `derivedFieldsFresh` says the caller has just refreshed the
    /// article's derived fields from this text, so its word count is taken instead of parsing the
    /// body again; `firstOfArticle` as for ``record(articleID:title:body:wordCount:firstOfArticle:source:at:thinning:in:)``.
    @discardableResult
    static func record(
        _ article: StoredArticle, source: ArticleVersionSource, at now: Date, derivedFieldsFresh: Bool = false,
        firstOfArticle: Bool = false, in context: ManagedObjectContext
    ) throws -> ArticleVersion? {
        try record(
            articleID: article.id, title: article.title, body: article.body, wordCount: derivedFieldsFresh ? article.wordCount : nil,
            firstOfArticle: firstOfArticle, source: source, at: now, in: context)
    }

    /// Adds versions read from an archive to the article's history, as they were recorded; a
    /// version the library holds already (same ID) is left as it is. A copy's versions get IDs of
    /// their own, since the original's stay with the original.
    static func add(_ versions: [ArticleVersionSnapshot], to articleID: UUID, freshIDs: Bool, in context: ManagedObjectContext) throws {
        guard !versions.isEmpty else { return }
        var existing = Set<UUID>()
        if !freshIDs {
            let ids = versions.map(\.id)
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(ids.count, start + 500)])
                existing.formUnion(try context.fetchDictionaries(
                    FetchRequest<ArticleVersion>(predicate: .in(\.id, chunk)), propertiesToFetch: ["id"]).compactMap { $0["id"] as? UUID })
            }
        }
        for snapshot in versions where !existing.contains(snapshot.id) {
            insert(ArticleVersionSnapshot(
                id: freshIDs ? UUID() : snapshot.id, articleID: articleID, recorded: snapshot.recorded, source: snapshot.source,
                title: snapshot.title, body: snapshot.body), in: context)
        }
    }

    /// Removes the article's saved versions that thinning at `now` lets go, counting a version
    /// about to be recorded at `now`. Deleted in SQL: versions are never loaded to be thinned.
    static func thin(_ articleID: UUID, adding now: Date, thinning: HistoryThinning, in context: ManagedObjectContext) throws {
        let rows = try context.fetchDictionaries(
            FetchRequest<ArticleVersion>(predicate: \.articleID == articleID, sortDescriptors: [.ascending(\.recorded)]),
            propertiesToFetch: ["id", "recorded"])
        guard !rows.isEmpty else { return }
        let ids = rows.map { $0["id"] as? UUID }
        let recorded = rows.map { $0["recorded"] as? Date ?? .distantPast } + [now]
        let kept = thinning.kept(recorded: recorded, now: now)
        let dropped = ids.indices.filter { !kept.contains($0) }.compactMap { ids[$0] }
        try delete(dropped, in: context)
    }

    /// Deletes the oldest versions until the history holds at most `limit` bytes, keeping every
    /// article's latest version. Returns how many were deleted.
    @discardableResult
    static func trim(to limit: Int64, in context: ManagedObjectContext) throws -> Int {
        let rows = try context.fetchDictionaries(
            FetchRequest<ArticleVersion>(sortDescriptors: [.ascending(\.recorded)]), propertiesToFetch: ["id", "articleID", "size"])
        var total = rows.reduce(Int64(0)) { $0 + ($1["size"] as? Int64 ?? 0) }
        guard total > limit else { return 0 }
        var latest: [UUID: Int] = [:]
        for (index, row) in rows.enumerated() {
            if let article = row["articleID"] as? UUID { latest[article] = index }
        }
        let protected = Set(latest.values)
        var dropped: [UUID] = []
        for (index, row) in rows.enumerated() where total > limit && !protected.contains(index) {
            guard let id = row["id"] as? UUID else { continue }
            dropped.append(id)
            total -= row["size"] as? Int64 ?? 0
        }
        try delete(dropped, in: context)
        return dropped.count
    }

    /// The bytes every version holds.
    static func totalSize(in context: ManagedObjectContext) throws -> Int64 {
        try context.fetchDictionaries(FetchRequest<ArticleVersion>(), propertiesToFetch: ["size"])
            .reduce(Int64(0)) { $0 + ($1["size"] as? Int64 ?? 0) }
    }

    /// Deletes the article's whole history (it was deleted for good).
    static func removeHistory(of articleIDs: [UUID], in context: ManagedObjectContext) throws {
        for start in stride(from: 0, to: articleIDs.count, by: 500) {
            let chunk = Array(articleIDs[start..<min(articleIDs.count, start + 500)])
            _ = try context.execute(BatchDeleteRequest<ArticleVersion>(predicate: .in(\.articleID, chunk)))
        }
    }

    private static func delete(_ ids: [UUID], in context: ManagedObjectContext) throws {
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(ids.count, start + 500)])
            _ = try context.execute(BatchDeleteRequest<ArticleVersion>(predicate: .in(\.id, chunk)))
        }
    }
}
