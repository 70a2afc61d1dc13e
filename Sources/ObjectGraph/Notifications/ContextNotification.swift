import Foundation
import Synchronization

/// What a context tells its observers, on its own queue, after its state reflects it.
///
/// Observe with ``ManagedObjectContext/addObserver(_:)`` (a callback, called synchronously) or
/// ``ManagedObjectContext/notifications()`` (an `AsyncSequence`).
public enum ContextNotification: Sendable {
    /// Objects were inserted, changed, refreshed or deleted in the context's view of the graph.
    case objectsDidChange(ObjectsDidChange)
    /// A save is about to run (after the last `objectsDidChange` of its edits): the IDs it will
    /// write, temporary for inserted objects.
    case willSave(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID])
    /// A save finished: what it wrote, with the permanent ID of each inserted object
    /// (``ChangeSet/permanentIDs``) and any conflicts the merge policy resolved.
    case didSave(ChangeSet)
}

/// A registered observer; it stays registered until ``cancel()`` or until the value is released.
public final class ContextObservation: Sendable {
    private let observers: ContextObservers
    private let number: Int

    init(observers: ContextObservers, number: Int) {
        self.observers = observers
        self.number = number
    }

    /// Stops the observer; it is not called again once this returns.
    public func cancel() {
        observers.remove(number)
    }

    deinit {
        observers.remove(number)
    }
}

/// The observers of one context. Adding and removing may happen on any thread, so they are kept
/// behind a lock; calls happen on the context's queue.
final class ContextObservers: @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [(number: Int, handler: (ContextNotification) -> Void)] = []
    private var nextNumber = 0
    /// The number of handlers, readable without the lock: edits check it on every change.
    private let count = Atomic<Int>(0)

    func add(_ handler: @escaping (ContextNotification) -> Void) -> Int {
        lock.withLock {
            nextNumber += 1
            handlers.append((nextNumber, handler))
            count.store(handlers.count, ordering: .relaxed)
            return nextNumber
        }
    }

    func remove(_ number: Int) {
        // Released outside the lock: a handler may own the last reference to something whose
        // release removes another observer.
        let removed: [(number: Int, handler: (ContextNotification) -> Void)] = lock.withLock {
            let removed = handlers.filter { $0.number == number }
            handlers.removeAll { $0.number == number }
            count.store(handlers.count, ordering: .relaxed)
            return removed
        }
        _ = removed
    }

    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    func post(_ notification: ContextNotification) {
        let current = lock.withLock { handlers }
        for entry in current { entry.handler(notification) }
    }
}
