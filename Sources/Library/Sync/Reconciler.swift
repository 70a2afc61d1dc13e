import Foundation
import ObjectGraph

/// The library's side of syncing: brings the server's versions of articles into the library,
/// inside the sync worker's transaction (its context; the worker saves). A version is taken as it
/// is when no local edit waits, merged with the local edits when they merge cleanly (the merged
/// content is then pushed), and recorded as a Conflict for the writer otherwise; an acknowledged
/// write makes the server's answer the article's base. The article's base (ArticleBase) follows
/// every version taken or merged.
///
/// The worker decides when (which versions, in which order, after which answers); every change of
/// an article, its base and its outbox that a server version brings is made here, so the rules of
/// what an article holds stay in the library.
public struct Reconciler {
    /// The worker's context.
    public let context: ManagedObjectContext
    /// The moment of the worker's transaction.
    public let now: Date

    /// A reconciler writing into `context` (call it on the context's queue, then save the context).
    public init(context: ManagedObjectContext, now: Date) {
        self.context = context
        self.now = now
    }

    /// What happened to one server version.
    public enum Outcome: Sendable, Hashable {
        /// The library already had it.
        case unchanged
        /// It became the article (no local edit waited).
        case taken
        /// It merged cleanly with the local edits; `pushes` when the merge must go to the server.
        case merged(pushes: Bool)
        /// Both sides deleted the article: nothing is left to send.
        case bothDeleted
        /// A Conflict record waits for the writer.
        case conflict
        /// An open conflict now holds this newer server version, and still waits for the writer.
        case conflictUpdated
    }

    /// The server's version when no local edit waits: the article gets its content (created when
    /// missing; out of the trash, its text there kept as a copy when the server never had it) or
    /// goes to the trash, and the base follows.
    @discardableResult
    public func take(_ remote: RemoteVersion, for record: ArticleSyncRecord) throws -> Outcome {
        guard let content = remote.content, let revision = remote.revision else {
            var changed = record.base != nil
            removeBase(of: record)
            if let article = record.article {
                changed = changed || article.trashed == nil || article.serverRevision != nil || article.syncState != .synced
                if article.trashed == nil { article.trashed = remote.changed ?? now }
                if article.serverRevision != nil { article.serverRevision = nil }
                if article.syncState != .synced { article.syncState = .synced }
            }
            return changed ? .taken : .unchanged
        }
        if let trashed = record.article, trashed.trashed != nil {
            try trashed.keepTrashedText(replacedBy: content, base: record.base?.content, at: now)
        }
        // Created here when the library never had a row for it (an article deleted for good took
        // its history with it), so no version of it can exist yet.
        let created = record.article == nil
        let article = try record.article ?? makeArticle(record.id, created: remote.changed ?? now)
        let before = article.content.normalized
        try article.setContent(content, at: now)
        let textChanged = before.title != content.title || before.body != content.body
        if textChanged || created { article.refreshDerivedFields() }
        if textChanged || before.status != content.status || article.isInserted {
            article.updated = remote.changed ?? now
        }
        if article.trashed != nil { article.trashed = nil }
        // The article's revision in this library counts content brought in too (`quire edit --if-revision`).
        if !article.isInserted && before != content { article.localRevision += 1 }
        if article.serverRevision != revision { article.serverRevision = revision }
        if article.syncState != .synced { article.syncState = .synced }
        if article.isInserted || textChanged {
            try VersionHistory.record(
                article, source: .synced, at: now, derivedFieldsFresh: textChanged || created, firstOfArticle: created, in: context)
        }
        setBase(of: record, to: content, revision: revision, changed: remote.changed)
        return .taken
    }

    /// The server's version against local edits that wait: both deleted, a clean three-way merge
    /// (applied, recorded as "merged automatically", and pushed unless it equals the server's),
    /// or a Conflict record. The unsent operations give way to the merge's, or the first of them
    /// is marked conflicted so that later ones wait for the writer's decision.
    public func reconcile(_ remote: RemoteVersion, with record: ArticleSyncRecord) throws -> Outcome {
        let local = record.localContent
        if local == nil, remote.content == nil {
            for operation in record.unsent { context.delete(operation) }
            if let article = record.article {
                if article.serverRevision != nil { article.serverRevision = nil }
                if article.syncState != .synced && !hasOtherWork(record) { article.syncState = .synced }
            }
            removeBase(of: record)
            return .bothDeleted
        }
        if let local, let theirs = remote.content, let revision = remote.revision, let article = record.article,
           let merged = ArticleMerge.cleanMerge(base: record.base?.content, mine: local, theirs: theirs) {
            for operation in record.unsent { context.delete(operation) }
            if merged != local {
                try article.setContent(merged, at: now)
                article.refreshDerivedFields()
                article.updated = now
                article.localRevision += 1
                if merged.title != local.title || merged.body != local.body {
                    try VersionHistory.record(article, source: .synced, at: now, derivedFieldsFresh: true, in: context)
                }
            }
            article.serverRevision = revision
            let pushes = merged != theirs
            if pushes {
                var writer = try OperationWriter(context: context, now: now, articles: [])
                writer.insert(record.id, .put, precondition: nil)
                article.syncState = .modified
            } else {
                article.syncState = .synced
            }
            if merged != local && merged != theirs {
                Conflict.recordAutomaticMerge(
                    articleID: record.id, base: record.base?.content, local: local, remote: theirs,
                    baseRevision: record.base?.revision, remoteRevision: revision, at: now, in: context)
            }
            setBase(of: record, to: theirs, revision: revision, changed: remote.changed)
            return .merged(pushes: pushes)
        }
        try Conflict.record(
            articleID: record.id, base: record.base?.content, local: local, remote: remote.content,
            baseRevision: record.base?.revision, remoteRevision: remote.revision, detected: now, in: context)
        if !record.unsent.contains(where: { $0.state == .conflicted }), let first = record.unsent.first {
            first.state = .conflicted
        }
        return .conflict
    }

    /// A newer server version for an article whose conflict still waits: the conflict's server
    /// side becomes it, so that the writer decides against the newest, and the conflict is read
    /// again against the live article as a local change would (``Conflict/settleIfAgreed(at:)``):
    /// sides that are now equal, merge cleanly or were both deleted need no decision.
    public func update(_ conflict: Conflict, with remote: RemoteVersion) throws -> Outcome {
        guard let revision = remote.revision, revision > conflict.remoteRevision ?? 0 else { return .unchanged }
        conflict.remote = remote.content
        conflict.remoteRevision = revision
        switch try conflict.settleIfAgreed(at: now) {
        case .open: return .conflictUpdated
        case let .merged(pushes): return .merged(pushes: pushes)
        case .bothDeleted: return .bothDeleted
        }
    }

    /// Whether the article has outbox work besides unsent operations (in flight, or refused).
    private func hasOtherWork(_ record: ArticleSyncRecord) -> Bool {
        record.operations.contains { !$0.isDeleted && $0.state != .acknowledged && $0.state != .pending && $0.state != .conflicted }
    }

    private func makeArticle(_ id: UUID, created: Date) throws -> StoredArticle {
        let article = StoredArticle(context: context)
        article.id = id
        article.created = created
        article.updated = created
        article.syncState = .synced
        return article
    }

    /// The server took this device's write (`version` its answer, nil content for a deletion): the
    /// base becomes it, and the article is synced unless more of its edits wait (or a conflict does).
    public func acknowledge(_ version: RemoteVersion, of articleID: UUID) throws {
        let record = try ArticleSyncRecord.load(articleID, in: context)
        if let content = version.content, let revision = version.revision {
            setBase(of: record, to: content, revision: revision, changed: version.changed)
        } else {
            removeBase(of: record)
        }
        guard let article = record.article else { return }
        let revision = version.content == nil ? nil : version.revision
        if article.serverRevision != revision { article.serverRevision = revision }
        let waiting = record.operations.contains { !$0.isDeleted && ($0.state == .pending || !$0.state.isFinal) }
        if article.syncState != .conflicted {
            let state: ArticleSyncState = waiting ? .modified : .synced
            if article.syncState != state { article.syncState = state }
        }
    }

    /// The base becomes `content` at `revision`.
    private func setBase(of record: ArticleSyncRecord, to content: ArticleContent, revision: Int64, changed: Date?) {
        let base = record.base ?? {
            let base = ArticleBase(context: context)
            base.articleID = record.id
            return base
        }()
        if base.revision != revision { base.revision = revision }
        if base.content != content { base.content = content }
        if base.serverUpdated != changed { base.serverUpdated = changed }
    }

    /// The server holds no live version any more: the next write creates the article again.
    private func removeBase(of record: ArticleSyncRecord) {
        if let base = record.base, !base.isDeleted { context.delete(base) }
    }
}
