/// Why a request got no answer the client can use. The three cases are what the state machine
/// needs to tell apart: a write that never left can simply be sent again; one that left may have
/// been applied, so its outcome must be looked up (or it is resent under the same key).
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request never left this machine: no connection could be made (refused, no route,
    /// unknown host). The server cannot have seen it.
    case notSent(TransportFailure)
    /// The request was written, or may have been, and no complete answer came back: a timeout, a
    /// connection cut while sending or mid-answer, a cancelled task. The server may have applied it.
    case outcomeUnknown(TransportFailure)
    /// An answer came back but cannot be trusted: malformed or mistyped JSON, a body over the
    /// limit, values that contradict the request (another article, a revision going backwards),
    /// a status the protocol does not have. For a write the outcome is unknown.
    case invalidAnswer(TransportFailure)

    /// The failure's context.
    public var failure: TransportFailure {
        switch self {
        case let .notSent(failure), let .outcomeUnknown(failure), let .invalidAnswer(failure): return failure
        }
    }

    /// `outcome unknown: PUT /v1/articles/a1: the request timed out`.
    public var description: String {
        switch self {
        case let .notSent(failure): return "not sent: \(failure)"
        case let .outcomeUnknown(failure): return "outcome unknown: \(failure)"
        case let .invalidAnswer(failure): return "invalid answer: \(failure)"
        }
    }
}
