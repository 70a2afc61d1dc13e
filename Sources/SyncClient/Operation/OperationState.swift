import Foundation
import Library

/// Where one outbox operation stands. `OperationReducer` moves it from state to state; the store
/// persists every new state in the same transaction as the effects it comes with.
///
///     pending ─sendStarted→ sending ─answered→ acknowledged | conflicted | terminalFailure
///                              │                 └ retryable → waitingRetry ─retryDue→ sending
///                              ├ notSent → waitingRetry
///                              └ outcomeLost → unknownOutcome ─retryDue→ lookingUp
///     lookingUp ─lookedUp→ acknowledged | conflicted | terminalFailure | waitingRetry
///                          | sending (never applied: resent under the same key)
///                          | unknownOutcome (still running, or the lookup failed)
///
/// `attempt` counts the tries made so far (sends and lookups); the backoff grows with it and is
/// capped, and retryable failures never turn terminal by themselves: a writer's edit waits for
/// the server however long it takes.
public enum OperationState: Sendable, Hashable, Codable {
    /// Saved, never sent. Only pending entries coalesce.
    case pending
    /// A send is on the wire.
    case sending(attempt: Int)
    /// The server did not take the write (or it never left): send it again, same key and
    /// precondition, at `next`.
    case waitingRetry(attempt: Int, next: Date)
    /// The write was sent but its answer was lost (timeout after sending, connection cut, an
    /// answer that cannot be trusted): look the key up at `nextLookup`.
    case unknownOutcome(attempt: Int, nextLookup: Date)
    /// `GET /v1/operations/{key}` is on the wire for an unknown outcome.
    case lookingUp(attempt: Int)
    /// The server holds the write, at `revision` (nil: a delete of an article the server did not
    /// hold). Final.
    case acknowledged(revision: Int64?)
    /// The server's version moved away from the base: a Conflict record holds both sides. Final;
    /// later entries of the article wait until the writer resolves it.
    case conflicted
    /// The server refused the write for good and retrying cannot help. Final; shown to the writer.
    case terminalFailure(RequestRejection)

    /// This state's name, as the library's outbox column holds it (one enum for both: the library
    /// owns the column, this type adds each state's values).
    public var kind: SyncOperationState {
        switch self {
        case .pending: return .pending
        case .sending: return .sending
        case .waitingRetry: return .waitingRetry
        case .unknownOutcome: return .unknownOutcome
        case .lookingUp: return .lookingUp
        case .acknowledged: return .acknowledged
        case .conflicted: return .conflicted
        case .terminalFailure: return .terminalFailure
        }
    }

    /// Whether nothing more happens to the operation: acknowledged, conflicted or terminal.
    public var isFinal: Bool { kind.isFinal }

    /// Whether a request of the operation is on the wire (a send or a lookup).
    public var isInFlight: Bool {
        switch self {
        case .sending, .lookingUp: return true
        default: return false
        }
    }

    /// The tries made so far; 0 before the first send and in final states.
    public var attempt: Int {
        switch self {
        case let .sending(attempt), let .waitingRetry(attempt, _), let .unknownOutcome(attempt, _),
             let .lookingUp(attempt):
            return attempt
        case .pending, .acknowledged, .conflicted, .terminalFailure:
            return 0
        }
    }

    /// When the worker should act on the operation again by itself: the retry or lookup time.
    public var scheduledTime: Date? {
        switch self {
        case let .waitingRetry(_, next): return next
        case let .unknownOutcome(_, nextLookup): return nextLookup
        default: return nil
        }
    }
}
