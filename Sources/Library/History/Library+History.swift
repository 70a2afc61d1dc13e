import Foundation
import ObjectGraph

/// Version history: what the History panel and `quire history` read, the ends of editing
/// sessions that record versions, and restoring a version (a normal edit: one save, one outbox
/// operation; the history itself is never rewritten).
extension Library {
    /// Records the article's saved text as a version (``ArticleVersionSource/edited``) unless its
    /// latest version holds it already, thins its older versions and keeps the whole history within
    /// ``historySizeLimit``. The app calls it when the writer leaves an article (switching to
    /// another, quitting, a long pause in typing) when it has nothing left to save (a save that
    /// ends a session records its version in the same transaction instead:
    /// ``recordEndOfEditingSession(of:in:at:)``, `editArticle(_:…endingSession:)`); `quire new`
    /// calls it after its save. Returns the version recorded, nil when the text was recorded already.
    @discardableResult
    public func endEditingSession(of id: UUID) async throws -> ArticleVersionSummary? {
        let version = try await write { context, now in
            try VersionHistory.record(
                try LibraryNames.article(id, in: context), source: .edited, at: now, derivedFieldsFresh: true, in: context)?.summary
        }
        if version != nil { try await trimHistory() }
        return version
    }

    /// ``endEditingSession(of:)`` in the view context, saved before it returns: for the app, which
    /// ends a session as it switches articles or quits and must not leave the save for later.
    /// The history is trimmed to its limit in the background afterwards.
    @MainActor
    @discardableResult
    public func endEditingSessionInViewContext(of id: UUID) throws -> ArticleVersionSummary? {
        let version = try writeInViewContext { context, now in
            try VersionHistory.record(
                try LibraryNames.article(id, in: context), source: .edited, at: now, derivedFieldsFresh: true, in: context)?.summary
        }
        if version != nil { trimHistoryLater() }
        return version
    }

    /// Adds to `context`'s unsaved changes a version of the article's text as the context holds
    /// it (``ArticleVersionSource/edited``, unless its latest version holds it already), for an
    /// editing session that ends with the context's next save: the text and its version then
    /// commit in one transaction (one commit, one wait for the disk), and a crash or kill leaves
    /// both or neither. The editor calls it, after ``LocalChanges/record(in:at:alsoChanged:)``,
    /// for the save that ends a session; on the context's queue. Returns whether a version was
    /// added; once saved, ``trimHistoryLater()`` keeps the history within its limit.
    public static func recordEndOfEditingSession(
        of objectID: ManagedObjectID, in context: ManagedObjectContext, at now: Date = Library.now()
    ) throws -> Bool {
        let article = try context.existingObject(with: objectID, as: StoredArticle.self)
        // LocalChanges has just counted the words of a changed body (an unchanged one has its
        // saved count): no second parse of 5,000 words on the writer's save.
        return try VersionHistory.record(article, source: .edited, at: now, derivedFieldsFresh: true, in: context) != nil
    }

    /// Trims the history to its limit (``trimHistory()``) off the caller's thread, after a version
    /// was recorded. Housekeeping: a trim that fails (a busy store) only leaves the history over
    /// its limit until the next session ends, and loses nothing.
    public func trimHistoryLater() {
        Task.detached { [self] in try? await trimHistory() }
    }

    /// The article's versions, newest first, without their bodies.
    public func history(of id: UUID) async throws -> [ArticleVersionSummary] {
        try await read { context in try VersionHistory.summaries(of: id, in: context) }
    }

    /// ``history(of:)`` read in the view context, for the History panel.
    @MainActor
    public func historyInViewContext(of id: UUID) throws -> [ArticleVersionSummary] {
        try VersionHistory.summaries(of: id, in: viewContext)
    }

    /// One version with its text.
    public func version(_ id: UUID) async throws -> ArticleVersionSnapshot {
        try await read { context in try VersionHistory.version(id, in: context).snapshot }
    }

    /// ``version(_:)`` read in the view context.
    @MainActor
    public func versionInViewContext(_ id: UUID) throws -> ArticleVersionSnapshot {
        try VersionHistory.version(id, in: viewContext).snapshot
    }

    /// The ID of the article's version whose ID is `text` or begins with it (at least four
    /// hexadecimal digits), as the command line accepts version IDs.
    public func versionID(matching text: String, of articleID: UUID) async throws -> UUID {
        let candidates = try await history(of: articleID).map(\.id)
        return try IDPrefix(text).match(in: candidates, noMatch: HistoryError.noVersionMatching(text, article: articleID)) {
            HistoryError.ambiguousVersionID(text, matches: $0)
        }
    }

    /// Gives the version's article the version's title and body, as an edit the writer makes: one
    /// save with its outbox operation. The text it replaces is recorded first
    /// (``ArticleVersionSource/beforeRestore``) unless the history holds it already; no version is
    /// changed or removed. Returns the article as saved.
    @discardableResult
    public func restoreVersion(_ versionID: UUID) async throws -> ArticleSnapshot {
        try await write { context, now in try Self.restoreVersion(versionID, in: context, at: now) }
    }

    /// ``restoreVersion(_:)`` in the view context, saved before it returns: for the History panel,
    /// whose editor shows the restored text at once (and can undo it as an edit).
    @MainActor
    @discardableResult
    public func restoreVersionInViewContext(_ versionID: UUID) throws -> ArticleSnapshot {
        try writeInViewContext { context, now in try Self.restoreVersion(versionID, in: context, at: now) }
    }

    private static func restoreVersion(_ versionID: UUID, in context: ManagedObjectContext, at now: Date) throws -> ArticleSnapshot {
        let version = try VersionHistory.version(versionID, in: context)
        let article = try LibraryNames.article(version.articleID, in: context)
        guard article.title != version.title || article.body != version.body else { return article.snapshot }
        try VersionHistory.record(article, source: .beforeRestore, at: now, in: context)
        article.title = version.title
        article.body = version.body
        try LocalChanges.record(in: context, at: now)
        return article.snapshot
    }

    /// Deletes the oldest versions until the history fits ``historySizeLimit`` (each article's
    /// latest version stays). Returns how many were deleted.
    @discardableResult
    public func trimHistory() async throws -> Int {
        let limit = historySizeLimit
        let fileSize = storeFileSize()
        // The history is part of the store: a store within the limit's bytes holds a history
        // within them, and the save that ends a session then waits for no read. (A size of 0 is
        // a store whose file could not be measured.)
        if fileSize > 0 && limit.holdsAnyHistory(inStoreOf: fileSize) { return 0 }
        // The library's own size: the store without the history it holds.
        let bytes: @Sendable (Int64) -> Int64 = { history in limit.bytes(forLibraryOf: max(0, fileSize - history)) }
        // Read first: a history within its limit (nearly always) costs no write.
        let history = try await read { context in try VersionHistory.totalSize(in: context) }
        guard history > bytes(history) else { return 0 }
        return try await write { context, _ in
            let history = try VersionHistory.totalSize(in: context)
            return history > bytes(history) ? try VersionHistory.trim(to: bytes(history), in: context) : 0
        }
    }

    /// The bytes the store's files take on disk (the file and its write-ahead log).
    func storeFileSize() -> Int64 {
        [url.path, url.path + "-wal"].reduce(Int64(0)) { total, path in
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
            return total + (size?.int64Value ?? 0)
        }
    }
}

/// One version in a history list: everything but the body.
public struct ArticleVersionSummary: Sendable, Hashable, Codable, Identifiable {
    /// The version's identifier.
    public var id: UUID
    /// The article it belongs to.
    public var articleID: UUID
    /// When it was recorded.
    public var recorded: Date
    /// Why it was recorded.
    public var source: ArticleVersionSource
    /// The title then.
    public var title: String
    /// Bytes of title and body.
    public var size: Int
    /// Words in the body.
    public var wordCount: Int

    /// The columns a summary reads.
    static let properties = ["id", "articleID", "recorded", "source", "title", "size", "wordCount"]

    /// A summary from a dictionary fetch of ``properties``.
    init?(row: [String: any Sendable]) {
        guard let id = row["id"] as? UUID, let articleID = row["articleID"] as? UUID, let recorded = row["recorded"] as? Date else {
            return nil
        }
        self.id = id
        self.articleID = articleID
        self.recorded = recorded
        source = (row["source"] as? String).flatMap(ArticleVersionSource.init(rawValue:)) ?? .edited
        title = row["title"] as? String ?? ""
        size = Int(row["size"] as? Int64 ?? 0)
        wordCount = Int(row["wordCount"] as? Int64 ?? 0)
    }

    init(_ version: ArticleVersion) {
        id = version.id
        articleID = version.articleID
        recorded = version.recorded
        source = version.source
        title = version.title
        size = version.size
        wordCount = version.wordCount
    }
}

extension ArticleVersion {
    /// The version without its body.
    var summary: ArticleVersionSummary { ArticleVersionSummary(self) }
}

extension VersionHistory {
    /// The article's versions, newest first, read without their bodies.
    static func summaries(of articleID: UUID, in context: ManagedObjectContext) throws -> [ArticleVersionSummary] {
        let request = FetchRequest<ArticleVersion>(predicate: \.articleID == articleID, sortDescriptors: [.descending(\.recorded)])
        return try context.fetchDictionaries(request, propertiesToFetch: ArticleVersionSummary.properties)
            .compactMap(ArticleVersionSummary.init(row:))
    }

    /// The version with this ID.
    static func version(_ id: UUID, in context: ManagedObjectContext) throws -> ArticleVersion {
        guard let version = try context.fetch(FetchRequest<ArticleVersion>(predicate: \.id == id, fetchLimit: 1)).first else {
            throw HistoryError.versionNotFound(id)
        }
        return version
    }
}

/// Why a version could not be found.
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No version has this ID.
    case versionNotFound(UUID)
    /// No version of the article has an ID that is or begins with this text.
    case noVersionMatching(String, article: UUID)
    /// Several versions' IDs begin with this text.
    case ambiguousVersionID(String, matches: [UUID])

    public var description: String {
        switch self {
        case .versionNotFound(let id): "no version has the ID \(id.uuidString.lowercased())"
        case .noVersionMatching(let text, let article):
            "no version of article \(article.uuidString.lowercased()) has an ID beginning with '\(text)' ('quire history' lists them)"
        case .ambiguousVersionID(let text, let matches):
            "\(matches.count) versions have IDs beginning with '\(text)': " + IDPrefix.list(matches)
        }
    }
}
