import Foundation

/// Why the sync worker could not go on with the library store. Store failures themselves are
/// ObjectGraph's typed errors and pass through unchanged.
public enum SyncStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process holds the library's sync lease (or took it over): this worker must not push
    /// or pull. `owner` names the holder, `until` when its hold ends unless renewed.
    case leaseHeldElsewhere(owner: String, until: Date)
    /// An outbox row lacks a value its state needs (a damaged or hand-edited store).
    case damagedOperation(String, String)
    /// A transaction kept meeting concurrent changes of the same rows.
    case keptConflicting(transaction: String, attempts: Int)

    public var description: String {
        switch self {
        case let .leaseHeldElsewhere(owner, until):
            return "another Quire process (\(owner)) syncs this library until \(until) unless it stops"
        case let .damagedOperation(id, reason): return "outbox operation \(id) is damaged: \(reason)"
        case let .keptConflicting(name, attempts): return "\(name) met concurrent changes \(attempts) times in a row"
        }
    }
}
