import Foundation
import Library
import ObjectGraph

/// One outbox transition persisted with its effects, in the worker's transaction: the row gets the
/// reducer's new state (an acknowledged one is deleted), an acknowledgement moves the article's
/// base, a 412 is reconciled (merged cleanly, or a Conflict record): the library's ``Reconciler``
/// makes those changes. Network effects are handed back for the worker to perform after the commit.
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
                try Reconciler(context: context, now: now).acknowledge(RemoteVersion(version), of: articleID)
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
}
