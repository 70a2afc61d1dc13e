import Foundation
import Library
import ObjectGraph

/// The parts of the status the store holds: read after every cycle and whenever a save touches
/// the outbox, the conflicts or the cursor.
struct StoreCounts: Sendable, Hashable {
    var waitingChanges = 0
    var openConflicts = 0
    var failures: [SyncFailure] = []
    var lastSynced: Date?

    /// Reads them in `context`.
    static func read(feed: String, in context: ManagedObjectContext) throws -> StoreCounts {
        var counts = StoreCounts()
        counts.waitingChanges = try context.count(for: FetchRequest<SyncOperation>(predicate: .in(\.state, [
            SyncOperationState.pending, .sending, .waitingRetry, .unknownOutcome, .lookingUp,
        ])))
        counts.openConflicts = try context.count(for: FetchRequest<Conflict>(predicate: .isNil(\.resolved)))
        let refused = try context.fetch(FetchRequest<SyncOperation>(
            predicate: \.state == SyncOperationState.terminalFailure, sortDescriptors: [.ascending(\.sequence)]))
        if !refused.isEmpty {
            let ids = refused.map(\.articleID)
            var titles: [UUID: String] = [:]
            for article in try context.fetch(FetchRequest<StoredArticle>(predicate: .in(\.id, ids))) { titles[article.id] = article.title }
            counts.failures = refused.map { row in
                SyncFailure(id: row.operationID, articleID: row.articleID, articleTitle: titles[row.articleID],
                            rejection: row.rejection, saved: row.created)
            }
        }
        counts.lastSynced = try SyncCycle.cursorRow(feed, in: context)?.lastSynced
        return counts
    }

    /// The status with these counts.
    func apply(to status: inout SyncStatus) {
        status.waitingChanges = waitingChanges
        status.openConflicts = openConflicts
        status.failures = failures
        status.lastSynced = lastSynced
    }
}
