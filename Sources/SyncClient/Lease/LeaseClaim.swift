import Foundation
import Library
import ObjectGraph

/// The library's sync lease as one worker sees it: only the holder of the `SyncLease` row named
/// ``name`` pushes and pulls, so that two Quire processes on one library never send the same
/// operation at once.
///
/// Every transaction of the worker renews the lease (``hold(in:at:)``): the row changes with each
/// of them, so a transaction of a worker whose lease was taken over meets the new holder's row
/// version and fails, and the worker stops without persisting anything more. A lease whose holder
/// stopped renewing it expires after ``duration``; one whose process on this machine is gone is
/// taken over at once.
struct LeaseClaim: Sendable {
    /// The row's name.
    static let name = "sync"

    /// This worker.
    let owner: LeaseOwner
    /// How long a hold lasts without renewal.
    let duration: TimeInterval

    /// Takes the lease (free, expired, its process gone, or ours already) or tells who holds it.
    func acquire(in context: ManagedObjectContext, at now: Date) throws -> LeaseState {
        let me = owner.description
        guard let lease = try Self.row(in: context) else {
            let lease = SyncLease(context: context)
            lease.name = Self.name
            lease.owner = me
            lease.expires = now + duration
            return .held
        }
        let gone = LeaseOwner(lease.owner)?.isGoneFromThisMachine ?? false
        guard lease.owner == me || lease.expires <= now || gone else {
            return .heldElsewhere(owner: lease.owner, until: lease.expires)
        }
        lease.owner = me
        lease.expires = now + duration
        return .held
    }

    /// Renews the lease in the caller's transaction; throws when another owner holds it.
    func hold(in context: ManagedObjectContext, at now: Date) throws {
        guard let lease = try Self.row(in: context), lease.owner == owner.description else {
            let row = try Self.row(in: context)
            throw SyncStoreError.leaseHeldElsewhere(owner: row?.owner ?? "nobody", until: row?.expires ?? now)
        }
        lease.expires = now + duration
    }

    /// Gives the lease up, when this worker holds it.
    func release(in context: ManagedObjectContext) throws {
        if let lease = try Self.row(in: context), lease.owner == owner.description { context.delete(lease) }
    }

    private static func row(in context: ManagedObjectContext) throws -> SyncLease? {
        try context.fetch(FetchRequest<SyncLease>(predicate: \.name == name, fetchLimit: 1)).first
    }
}

/// Whether a worker holds the lease.
enum LeaseState: Sendable, Hashable {
    /// This worker holds it.
    case held
    /// Another owner holds it until the given time.
    case heldElsewhere(owner: String, until: Date)
}
