import Foundation
import SyncProtocol

/// What the worker must do after a transition. The store records the new state and these effects
/// in one transaction (an acknowledgement updates the article's base with the entry's state; a
/// conflict record is written with `conflicted`), then the worker performs the network effects.
public enum OperationEffect: Sendable, Hashable {
    /// Send the write: always the entry's `request`, so the same idempotency key and precondition.
    case send(WriteRequest)
    /// Ask the server what became of the write: `GET /v1/operations/{key}`.
    case lookUp(WriteRequest)
    /// Wake the worker at this time for the operation's retry or lookup.
    case wakeUp(at: Date)
    /// The server holds the write: make `version` the article's base (ArticleBase and its server
    /// revision); later entries of the article are sent against it.
    case acknowledge(ServerVersion)
    /// The base was stale: record a Conflict with the base, the local version and `current`, the
    /// server's version (nil: the server holds nothing under the ID).
    case recordConflict(current: ArticleChange?)
    /// Show the writer that the operation failed for good, and why.
    case reportFailure(RequestRejection)
    /// The server refused the account's token: stop the worker and ask the writer to sign in
    /// again. The operation is kept and resumes with the next worker.
    case stopForAccount(detail: String?)
    /// This worker lost its lease: persist nothing more and stop. The next lease holder finds the
    /// operation as the store holds it and resumes it.
    case relinquish
}
