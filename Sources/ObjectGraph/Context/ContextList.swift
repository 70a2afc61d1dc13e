import Synchronization

/// Contexts held weakly, behind a lock: the contexts a store or a parent delivers merges to.
final class ContextList: Sendable {
    private struct Entry: Sendable {
        weak var context: ManagedObjectContext?
    }

    private let entries = Mutex<[Entry]>([])

    func add(_ context: ManagedObjectContext) {
        entries.withLock { entries in
            entries.removeAll { $0.context == nil || $0.context === context }
            entries.append(Entry(context: context))
        }
    }

    func remove(_ context: ManagedObjectContext) {
        entries.withLock { $0.removeAll { $0.context == nil || $0.context === context } }
    }

    /// The contexts still alive, in the order they were added.
    var all: [ManagedObjectContext] {
        entries.withLock { $0.compactMap(\.context) }
    }
}
