import Foundation
import Library
import ObjectGraph

/// The worker's transactions on the library store. Each ``write(_:_:)`` runs in a fresh background
/// context and is one save: the outbox transitions, their effects (ArticleBase, articles, conflict
/// records, the cursor) and the renewed lease commit together or not at all.
///
/// A save that meets a concurrent change of the same rows (the writer saving an edit, another
/// process) is run again from a fresh read; one that finds the lease in another owner's hands
/// throws ``SyncStoreError/leaseHeldElsewhere(owner:until:)``.
struct SyncStore: Sendable {
    /// The library synced.
    let library: Library
    /// This worker's claim on the library's sync lease.
    let lease: LeaseClaim
    /// How often a transaction is run when its save meets concurrent changes.
    static let attempts = 8

    /// Runs `body` in one transaction that also renews the lease; `body` gets the moment it runs at.
    func write<T: Sendable>(
        _ name: String, _ body: @escaping @Sendable (ManagedObjectContext, Date) throws -> T
    ) async throws -> T {
        try await transaction(name) { context, now in
            try lease.hold(in: context, at: now)
            return try body(context, now)
        }
    }

    /// Takes the lease, or tells who holds it.
    func acquireLease() async throws -> LeaseState {
        try await transaction("acquire the sync lease") { context, now in try lease.acquire(in: context, at: now) }
    }

    /// Gives the lease up.
    func releaseLease() async throws {
        try await transaction("release the sync lease") { context, _ in try lease.release(in: context) }
    }

    /// Reads in a fresh background context.
    func read<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        let context = library.container.newBackgroundContext()
        context.name = "sync read"
        return try await context.perform { try body(context) }
    }

    private func transaction<T: Sendable>(
        _ name: String, _ body: @escaping @Sendable (ManagedObjectContext, Date) throws -> T
    ) async throws -> T {
        for _ in 1..<Self.attempts {
            do {
                return try await attempt(name, body)
            } catch ObjectGraphError.mergeConflicts {
                continue
            } catch let error as ValidationError where error.issues.allSatisfy(\.isNotUnique) {
                // A local edit took the next outbox sequence, or created the same folder or tag.
                continue
            }
        }
        do {
            return try await attempt(name, body)
        } catch ObjectGraphError.mergeConflicts {
            throw SyncStoreError.keptConflicting(transaction: name, attempts: Self.attempts)
        }
    }

    private func attempt<T: Sendable>(
        _ name: String, _ body: @escaping @Sendable (ManagedObjectContext, Date) throws -> T
    ) async throws -> T {
        let context = library.container.newBackgroundContext()
        context.name = "sync: \(name)"
        return try await context.perform {
            context.transactionAuthor = "sync"
            let result = try body(context, Library.now())
            if context.hasChanges { _ = try context.save() }
            return result
        }
    }
}

extension ValidationError.Issue {
    /// Whether the issue is a unique value another object holds.
    var isNotUnique: Bool {
        if case .notUnique = reason { return true }
        return false
    }
}
