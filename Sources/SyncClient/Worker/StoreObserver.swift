import Foundation
import Library
import ObjectGraph

/// Watches the library store for the saves the worker cares about, wherever they come from (the
/// editor's save in the view context, a library operation, a conflict resolution): a context that
/// merges every other context's save and tells the worker what kind of rows changed.
final class StoreObserver: Sendable {
    /// What a merged save touched.
    struct Change: Sendable, Hashable {
        /// Outbox operations were added, or an unsent one took a new change: there is something to push.
        var outboxGrew = false
        /// Outbox operations, conflicts or the cursor changed: the status's counts may have.
        var countsChanged = false
    }

    private let context: ManagedObjectContext
    private let observation: ContextObservation

    /// Starts watching; `onChange` runs on the observing context's queue.
    init(library: Library, onChange: @escaping @Sendable (Change) -> Void) {
        let context = library.container.newBackgroundContext()
        context.name = "sync: store observer"
        self.context = context
        observation = context.addObserver { notification in
            guard case let .objectsDidChange(change) = notification else { return }
            var seen = Change()
            for id in change.inserted where id.entityName == "SyncOperation" { seen.outboxGrew = true }
            for updated in change.updated where updated.objectID.entityName == "SyncOperation" {
                seen.countsChanged = true
                // A waiting operation that took a new change moves to a new sequence.
                if ["payload", "change", "sequence"].contains(where: { updated.changedKeys.contains($0) }) { seen.outboxGrew = true }
            }
            let ids = change.inserted + change.deleted + change.updated.map(\.objectID) + change.refreshed.map(\.objectID)
            if seen.outboxGrew || change.invalidatedAll
                || ids.contains(where: { ["SyncOperation", "Conflict", "SyncCursor"].contains($0.entityName) }) {
                seen.countsChanged = true
            }
            if seen.outboxGrew || seen.countsChanged { onChange(seen) }
        }
        context.automaticallyMergesChangesFromParent = true
    }

    /// Stops watching.
    func cancel() {
        observation.cancel()
        context.automaticallyMergesChangesFromParent = false
    }
}
