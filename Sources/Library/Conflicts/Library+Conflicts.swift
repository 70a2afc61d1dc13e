import Foundation
import ObjectGraph
import SyncProtocol

extension Conflict {
    /// Records a conflict in `context`, as part of the transaction that found it (the sync
    /// worker's), and marks the article conflicted. `local` or `remote` is nil for a deletion.
    @discardableResult
    public static func record(
        articleID: UUID, base: ArticleContent?, local: ArticleContent?, remote: ArticleContent?,
        baseRevision: Int64?, remoteRevision: Int64?, detected: Date, in context: ManagedObjectContext
    ) throws -> Conflict {
        let conflict = Conflict(context: context)
        conflict.id = UUID()
        conflict.articleID = articleID
        conflict.base = base
        conflict.local = local
        conflict.remote = remote
        conflict.baseRevision = baseRevision
        conflict.remoteRevision = remoteRevision
        conflict.detected = detected
        let article = try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == articleID, fetchLimit: 1)).first
        article?.syncState = .conflicted
        return conflict
    }
}

/// Conflict records: the sync worker records them, the writer resolves them. A resolution is one
/// save: the article, its outbox operation (sent against the server revision it resolved) and the
/// closed conflict.
extension Library {
    /// Records a conflict (see ``Conflict/record(articleID:base:local:remote:baseRevision:remoteRevision:detected:in:)``
    /// for the form that joins a transaction of the caller's).
    @discardableResult
    public func recordConflict(
        articleID: UUID, base: ArticleContent?, local: ArticleContent?, remote: ArticleContent?,
        baseRevision: Int64?, remoteRevision: Int64?
    ) async throws -> ConflictSnapshot {
        try await write { context, now in
            try Conflict.record(
                articleID: articleID, base: base, local: local, remote: remote, baseRevision: baseRevision,
                remoteRevision: remoteRevision, detected: now, in: context
            ).snapshot
        }
    }

    /// The conflicts waiting for the writer, oldest first.
    public func openConflicts() async throws -> [ConflictSnapshot] {
        try await read { context in
            try context.fetch(FetchRequest<Conflict>(predicate: .isNil(\.resolved), sortDescriptors: [.ascending(\.detected)]))
                .map(\.snapshot)
        }
    }

    /// One conflict, open or resolved.
    public func conflict(_ id: UUID) async throws -> ConflictSnapshot {
        try await read { context in
            guard let conflict = try context.fetch(FetchRequest<Conflict>(predicate: \.id == id, fetchLimit: 1)).first else {
                throw LibraryError.conflictNotFound(id)
            }
            return conflict.snapshot
        }
    }

    /// Carries out the writer's decision in one save: the article gets the chosen content, its
    /// unsent and conflicted operations give way to one operation based on the server revision the
    /// conflict holds (none when the server's version is taken), the base becomes the server's
    /// version, and the conflict is closed.
    @discardableResult
    public func resolveConflict(_ id: UUID, _ resolution: ConflictResolution) async throws -> ConflictOutcome {
        try await write { context, now in
            try ConflictResolver(context: context, now: now).resolve(id, resolution)
        }
    }
}

/// What a resolution left.
public struct ConflictOutcome: Sendable, Hashable {
    /// The article after the resolution (nil when this device's deletion was kept and it is gone).
    public var article: ArticleSnapshot?
    /// The new article holding this device's version, for ``ConflictResolution/keepBoth``.
    public var copy: ArticleSnapshot?
}

/// One resolution, inside the resolving save.
private struct ConflictResolver {
    let context: ManagedObjectContext
    let now: Date

    func resolve(_ id: UUID, _ resolution: ConflictResolution) throws -> ConflictOutcome {
        guard let conflict = try context.fetch(FetchRequest<Conflict>(predicate: \.id == id, fetchLimit: 1)).first else {
            throw LibraryError.conflictNotFound(id)
        }
        guard conflict.resolved == nil else { throw LibraryError.conflictAlreadyResolved(id) }
        let articleID = conflict.articleID
        var article = try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == articleID, fetchLimit: 1)).first
        let remote = conflict.remote
        let remoteRevision = conflict.remoteRevision
        func notApplicable(_ reason: String) -> LibraryError { .resolutionNotApplicable(conflict: id, reason: reason) }
        // This device deleted the article and the server changed it: the choices are to delete it
        // anyway (Keep Mine) or to keep the server's version (Keep Theirs).
        let deletedHere = conflict.local == nil && remote != nil
        let deletedHereChoices = "this device deleted the article and the server changed it; "
            + "delete it anyway (keep mine) or keep the server's version (keep theirs)"

        // Unsent and conflicted operations of the article give way to the resolution's.
        let open = FetchRequest<SyncOperation>(
            predicate: \.articleID == articleID && .in(\.state, [SyncOperationState.pending, .conflicted]))
        for operation in try context.fetch(open) { context.delete(operation) }
        var writer = try OperationWriter(context: context, now: now, articles: [])
        let base: OperationWriter.WriteBase? = remote == nil ? .absent : remoteRevision.map { .revision($0) }
        var copy: StoredArticle?

        switch resolution {
        case .keepMine:
            if let mine = article, mine.trashed == nil {
                guard let base else { throw notApplicable("the conflict holds no server revision to write over") }
                writer.insert(articleID, .put, mine.payload, precondition: base)
            } else if remote != nil, let remoteRevision {
                // This device deleted it: the deletion goes over the server's edit.
                writer.insert(articleID, .delete, nil, precondition: .revision(remoteRevision))
            } else {
                throw notApplicable("both sides deleted the article; accept the deletion")
            }
        case .keepTheirs, .acceptDelete:
            if let remote {
                guard resolution == .keepTheirs else {
                    throw notApplicable(deletedHere ? deletedHereChoices : "the server did not delete the article")
                }
                article = try take(remote, into: article, articleID)
            } else if let current = article, current.trashed == nil {
                current.trashed = now
            }
        case .keepBoth:
            guard let remote else { throw notApplicable("the server deleted the article; restore it or accept the deletion") }
            guard !deletedHere else { throw notApplicable(deletedHereChoices) }
            guard let mine = article else { throw notApplicable("this device deleted the article; there is no copy to keep") }
            copy = try makeCopy(of: mine, writer: &writer)
            article = try take(remote, into: mine, articleID)
        case .merged(let content):
            guard let base else { throw notApplicable("the conflict holds no server revision to write over") }
            let merged = try article ?? makeArticle(articleID)
            try merged.setContent(content, at: now)
            merged.trashed = nil
            merged.refreshDerivedFields()
            try LocalChanges.checkSyncable(merged)
            merged.updated = now
            writer.insert(articleID, .put, merged.payload, precondition: base)
            article = merged
        case .restoreMine:
            guard remote == nil else { throw notApplicable(deletedHere ? deletedHereChoices : "the server did not delete the article") }
            guard let mine = article else { throw notApplicable("the article is not on this device") }
            mine.trashed = nil
            writer.insert(articleID, .put, mine.payload, precondition: .absent)
        }

        try updateBase(articleID, to: remote, revision: remoteRevision)
        if let article {
            article.localRevision += 1
            article.serverRevision = remote == nil ? nil : remoteRevision
            let pushes = resolution != .keepTheirs && resolution != .acceptDelete && resolution != .keepBoth
            article.syncState = pushes ? .modified : (remote == nil ? .localOnly : .synced)
        }
        conflict.resolution = resolution.kind
        conflict.resolved = now
        return ConflictOutcome(article: article?.snapshot, copy: copy?.snapshot)
    }

    /// The article with the server's content, synced (created when this device had deleted it).
    private func take(_ remote: ArticleContent, into article: StoredArticle?, _ articleID: UUID) throws -> StoredArticle {
        let article = try article ?? makeArticle(articleID)
        try article.setContent(remote, at: now)
        article.trashed = nil
        article.refreshDerivedFields()
        article.updated = now
        return article
    }

    private func makeArticle(_ id: UUID) throws -> StoredArticle {
        let article = StoredArticle(context: context)
        article.id = id
        article.created = now
        article.updated = now
        return article
    }

    /// This device's version as a new local article, "Title (conflicted copy)".
    private func makeCopy(of mine: StoredArticle, writer: inout OperationWriter) throws -> StoredArticle {
        var content = mine.content
        content.title = ConflictResolution.conflictedCopyTitle(of: content.title)
        let copy = try makeArticle(UUID())
        try copy.setContent(content, at: now)
        copy.refreshDerivedFields()
        try LocalChanges.checkSyncable(copy)
        copy.localRevision = 1
        copy.syncState = .localOnly
        writer.insert(copy.id, .put, copy.payload, precondition: .absent)
        return copy
    }

    /// The base becomes the server's version; a server deletion leaves no base (the next write
    /// creates the article again).
    private func updateBase(_ articleID: UUID, to remote: ArticleContent?, revision: Int64?) throws {
        let existing = try context.fetch(FetchRequest<ArticleBase>(predicate: \.articleID == articleID, fetchLimit: 1)).first
        guard let remote, let revision else {
            if let existing { context.delete(existing) }
            return
        }
        let base = existing ?? ArticleBase(context: context)
        base.articleID = articleID
        base.revision = revision
        base.content = remote
    }
}
