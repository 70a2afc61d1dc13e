import Foundation
import ObjectGraph
import SyncProtocol

/// Carries out a decision on one conflict inside the caller's save: the writer's
/// (``resolve(_:_:)``), or the one the sides reach by themselves (``settle(_:article:)``). Both
/// read this device's side from the live article (``ConflictSides``), never from the version
/// recorded when the conflict was found.
///
/// Either way the article's unsent and conflicted operations give way to at most one operation,
/// sent against the server revision the conflict holds (`absent` after a deletion on the server),
/// the base becomes the server's version, and the conflict is closed.
struct ConflictResolver {
    let context: ManagedObjectContext
    let now: Date

    // MARK: The writer's decision

    func resolve(_ id: UUID, _ resolution: ConflictResolution, ifKind decidedAgainst: ConflictKind? = nil) throws -> ConflictOutcome {
        guard let conflict = try context.fetch(FetchRequest<Conflict>(predicate: \.id == id, fetchLimit: 1)).first else {
            throw LibraryError.conflictNotFound(id)
        }
        guard conflict.resolved == nil else { throw LibraryError.conflictAlreadyResolved(id) }
        let articleID = conflict.articleID
        var article = try Self.article(articleID, in: context)
        let sides = conflict.sides(article: article)
        // Mine and theirs mean something else to each kind: a choice made against another kind is not carried out.
        if let decidedAgainst, decidedAgainst != sides.kind {
            throw LibraryError.conflictChanged(conflict: id, decidedAgainst: decidedAgainst, now: sides.kind)
        }
        if let reason = Self.refusal(of: resolution, sides: sides, remoteRevision: conflict.remoteRevision, articleExists: article != nil) {
            throw LibraryError.resolutionNotApplicable(conflict: id, reason: reason)
        }
        let remote = conflict.remote
        // Checked above wherever it is needed: a put or delete over the server's version needs its revision.
        let overServer: OperationWriter.WriteBase = remote == nil ? .absent : .revision(conflict.remoteRevision ?? 0)
        var writer = try giveWay(articleID)
        var copy: StoredArticle?
        var sends: SyncOperationChange?

        switch resolution {
        case .keepMine:
            if article != nil, sides.local != nil {
                writer.insert(articleID, .put, precondition: overServer)
                sends = .put
            } else {
                // Deleted here: the deletion goes over the server's edit; the article stays in the trash.
                writer.insert(articleID, .delete, precondition: overServer)
                sends = .delete
            }
        case .keepTheirs, .acceptDelete:
            if let remote {
                if sides.keepTheirsKeepsCopy, let mine = article { copy = try makeCopy(of: mine, writer: &writer) }
                article = try take(remote, into: article, articleID)
            } else if let mine = article, mine.trashed == nil {
                // The server's deletion: the text goes to the trash, never away.
                mine.trashed = now
            }
        case .keepBoth:
            if let mine = article { copy = try makeCopy(of: mine, writer: &writer) }
            if let remote { article = try take(remote, into: article, articleID) }
        case .merged(let content):
            if sides.keepsCopy(replacingWith: content), let mine = article { copy = try makeCopy(of: mine, writer: &writer) }
            if let mine = article { try VersionHistory.record(mine, source: .beforeConflict, at: now, in: context) }
            let merged = try article ?? makeArticle(articleID)
            try merged.setContent(content, at: now)
            merged.trashed = nil
            merged.refreshDerivedFields()
            try LocalChanges.checkSyncable(merged)
            merged.updated = now
            writer.insert(articleID, .put, precondition: overServer)
            sends = .put
            article = merged
        case .restoreMine:
            if let mine = article {
                mine.trashed = nil
                writer.insert(articleID, .put, precondition: .absent)
                sends = .put
            }
        }

        try updateBase(articleID, to: remote, revision: conflict.remoteRevision)
        if let article {
            article.localRevision += 1
            article.serverRevision = remote == nil ? nil : conflict.remoteRevision
            article.syncState = sends != nil ? .modified : (remote == nil ? .localOnly : .synced)
        }
        close(conflict, as: resolution.kind, local: sides.local)
        return ConflictOutcome(
            conflictID: id, articleID: articleID, resolution: resolution.kind, kind: sides.kind,
            title: sides.current?.title ?? remote?.title ?? sides.base?.title ?? "", article: article?.snapshot, copy: copy?.snapshot, sends: sends)
    }

    /// Why `resolution` does not fit a conflict with these sides, naming the choices that do; nil
    /// when it fits.
    static func refusal(of resolution: ConflictResolution, sides: ConflictSides, remoteRevision: Int64?, articleExists: Bool) -> ConflictRefusal? {
        switch (resolution, sides.kind) {
        case (.keepTheirs, _):
            return nil
        case (.keepMine, .deletedOnBothSides), (.keepBoth, .deletedOnBothSides):
            return .deletedOnBothSides
        case (.keepMine, _), (.merged, _):
            return sides.remote != nil && remoteRevision == nil ? .noServerRevision : nil
        case (.keepBoth, .editedOnBothSides):
            return nil
        case (.keepBoth, .deletedHere), (.restoreMine, .deletedHere), (.acceptDelete, .deletedHere):
            return .deletedHere
        case (.keepBoth, _):
            return .deletedOnServer
        case (.restoreMine, .editedOnBothSides), (.acceptDelete, .editedOnBothSides):
            return .notDeletedOnServer
        case (.restoreMine, _):
            return articleExists ? nil : .notOnThisDevice
        case (.acceptDelete, _):
            return nil
        }
    }

    // MARK: Sides that agree

    /// Closes `conflict` as merged automatically when its sides agree without the writer (both
    /// deleted, equal, or merged cleanly); `article` is the live article, nil when gone. A clean
    /// merge becomes the article's content and is pushed unless it is the server's version.
    @discardableResult
    func settle(_ conflict: Conflict, article: StoredArticle?) throws -> ConflictSettlement {
        let sides = conflict.sides(article: article)
        guard let agreement = sides.agreement else { return .open }
        let articleID = conflict.articleID
        switch agreement {
        case .deleted:
            _ = try giveWay(articleID)
            try updateBase(articleID, to: nil, revision: nil)
            if let article {
                if article.serverRevision != nil { article.serverRevision = nil }
                article.syncState = .synced
            }
            close(conflict, as: .mergedAutomatically, local: nil)
            return .bothDeleted
        case .content(let agreed):
            // Content the server would refuse (a merge past a limit) waits for the writer instead.
            guard let article, let remote = sides.remote, let revision = conflict.remoteRevision,
                  agreed.payload.violation() == nil else { return .open }
            var writer = try giveWay(articleID)
            if article.content != agreed {
                try VersionHistory.record(article, source: .beforeConflict, at: now, in: context)
                try article.setContent(agreed, at: now)
                article.refreshDerivedFields()
                article.updated = now
                article.localRevision += 1
            }
            let pushes = agreed != remote
            if pushes { writer.insert(articleID, .put, precondition: .revision(revision)) }
            article.serverRevision = revision
            article.syncState = pushes ? .modified : .synced
            try updateBase(articleID, to: remote, revision: revision)
            close(conflict, as: .mergedAutomatically, local: sides.local)
            return .merged(pushes: pushes)
        }
    }

    // MARK: Steps

    /// The article with this ID, nil when it is not in the library.
    static func article(_ id: UUID, in context: ManagedObjectContext) throws -> StoredArticle? {
        try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id, fetchLimit: 1)).first
    }

    /// Deletes the article's unsent and conflicted operations, which the decision replaces, and
    /// answers a writer for the one it writes.
    private func giveWay(_ articleID: UUID) throws -> OperationWriter {
        let open = FetchRequest<SyncOperation>(
            predicate: \.articleID == articleID && .in(\.state, [SyncOperationState.pending, .conflicted]))
        for operation in try context.fetch(open) { context.delete(operation) }
        return try OperationWriter(context: context, now: now, articles: [])
    }

    /// Closes the conflict; its local side becomes the one it was decided against.
    private func close(_ conflict: Conflict, as kind: ConflictResolution.Kind, local: ArticleContent?) {
        if conflict.local != local { conflict.local = local }
        conflict.resolution = kind
        conflict.resolved = now
    }

    /// The article with the server's content, out of the trash (created when it is gone).
    private func take(_ remote: ArticleContent, into article: StoredArticle?, _ articleID: UUID) throws -> StoredArticle {
        if let article { try VersionHistory.record(article, source: .beforeConflict, at: now, in: context) }
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

    /// The article's text as a new local article (``StoredArticle/makeConflictedCopy(at:)``); one in
    /// the library is sent to the server like any new article.
    private func makeCopy(of mine: StoredArticle, writer: inout OperationWriter) throws -> StoredArticle {
        let copy = try mine.makeConflictedCopy(at: now)
        if copy.trashed == nil { writer.insert(copy.id, .put, precondition: .absent) }
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

/// What re-reading an open conflict against both sides did (``Conflict/settleIfAgreed(at:)``).
public enum ConflictSettlement: Sendable, Hashable {
    /// The writer must still decide.
    case open
    /// The sides were equal or merged cleanly: the conflict is closed, the article holds the
    /// result, and `pushes` when it must still go to the server.
    case merged(pushes: Bool)
    /// Both sides deleted the article: the conflict is closed, nothing is sent.
    case bothDeleted
}

extension StoredArticle {
    /// A new local article holding this one's content as "Title (conflicted copy)", in the same
    /// place: in the library, or in the trash (where it stays on this device only). The caller
    /// writes the outbox operation of a copy in the library.
    func makeConflictedCopy(at now: Date) throws -> StoredArticle {
        guard let context = managedObjectContext else { throw ObjectGraphError.objectDetached(objectID) }
        var content = self.content
        content.title = ConflictResolution.conflictedCopyTitle(of: content.title)
        let copy = StoredArticle(context: context)
        copy.id = UUID()
        copy.created = now
        copy.updated = now
        try copy.setContent(content, at: now)
        copy.refreshDerivedFields()
        try LocalChanges.checkSyncable(copy)
        copy.localRevision = 1
        copy.syncState = .localOnly
        if trashed != nil { copy.trashed = now }
        return copy
    }
}
