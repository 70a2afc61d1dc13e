import Foundation
import Library
import ObjectGraph

/// One outbox transition persisted with its effects, in the worker's transaction: the row gets the
/// reducer's new state (an acknowledged one is deleted), an acknowledgement moves the article's
/// base, a 412 is reconciled (merged cleanly, or a Conflict record). Network effects are handed
/// back for the worker to perform after the commit.
struct OutboxStep {
    let context: ManagedObjectContext
    let now: Date

    /// What the worker does after the transaction.
    struct Followup: Sendable {
        /// Requests to make, by operation ID.
        var requests: [(operationID: String, effect: OperationEffect)] = []
        /// The server refused the token (with its detail): stop and ask the writer to sign in again.
        var accountRejected: String??
        /// Operations acknowledged.
        var acknowledged = 0
        /// What the 412s led to.
        var reconciled = RemoteChangeTally()
        /// Operations refused for good.
        var failed = 0
    }

    /// Persists `step` for `row` and carries out its store effects.
    func persist(_ step: OperationStep, row: SyncOperation, into followup: inout Followup) throws {
        let articleID = row.articleID
        if case .acknowledged = step.entry.state {
            context.delete(row)
        } else {
            row.update(from: step.entry)
        }
        for effect in step.effects {
            switch effect {
            case .send, .lookUp:
                followup.requests.append((step.entry.id, effect))
            case let .acknowledge(version):
                try acknowledge(version, of: articleID)
                followup.acknowledged += 1
            case let .recordConflict(current):
                let record = try ArticleSyncRecord.load(articleID, in: context)
                let remote = current.map(RemoteVersion.init) ?? .nothing
                let reconciler = Reconciler(context: context, now: now)
                followup.reconciled.count(try reconciler.reconcile(remote, with: record))
            case .reportFailure:
                followup.failed += 1
            case let .stopForAccount(detail):
                followup.accountRejected = .some(detail)
            case .wakeUp, .relinquish:
                break
            }
        }
    }

    /// The server holds the write: the base becomes its version, and the article is synced unless
    /// more of its edits wait (or a conflict does).
    private func acknowledge(_ version: ServerVersion, of articleID: UUID) throws {
        let record = try ArticleSyncRecord.load(articleID, in: context)
        let reconciler = Reconciler(context: context, now: now)
        switch version {
        case let .live(article):
            reconciler.setBase(of: record, to: ArticleContent(article.content), revision: article.revision, changed: article.updatedAt)
        case .deleted:
            reconciler.removeBase(of: record)
        }
        guard let article = record.article else { return }
        let revision: Int64? = if case let .live(server) = version { server.revision } else { nil }
        if article.serverRevision != revision { article.serverRevision = revision }
        let waiting = record.operations.contains { !$0.isDeleted && ($0.state == .pending || !$0.state.isFinal) }
        if article.syncState != .conflicted {
            let state: ArticleSyncState = waiting ? .modified : .synced
            if article.syncState != state { article.syncState = state }
        }
    }
}
