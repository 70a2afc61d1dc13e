/// Something the worker observed about one outbox operation; `OperationReducer` turns it into the
/// operation's next state and the effects to perform.
///
/// An event that does not apply to the operation's state (a late answer after the state moved
/// on) changes nothing and asks for nothing.
public enum OperationEvent: Sendable, Hashable {
    /// The worker picked the pending operation to send. `base` is the article's base at this
    /// moment (its ArticleBase revision, `.absent` when the server never acknowledged it); it
    /// becomes the operation's precondition unless one is set already.
    case sendStarted(base: WritePrecondition)
    /// The server answered the send.
    case answered(WriteAnswer)
    /// The send failed before the request left this machine (`TransportError.notSent`).
    case notSent
    /// The request was sent, or may have been, and no trustworthy answer came back: a timeout
    /// after sending, a connection cut, an answer that failed its checks.
    case outcomeLost
    /// `GET /v1/operations/{key}` answered.
    case lookedUp(WriteLookup)
    /// The lookup got no usable answer (any `TransportError`).
    case lookupFailed
    /// The operation's retry or lookup time came (or the writer asked to sync now): try again.
    case retryDue
    /// This worker lost its lease on the outbox: another process may be pushing now.
    case leaseLost
    /// A worker took the lease (at start, or over an expired one) and found the operation as the
    /// store holds it. A send or lookup that was on the wire then has an unknown outcome.
    case resumed

    /// The event a send's result drives: an answer, `notSent`, or `outcomeLost` for an unknown
    /// outcome and for an answer that failed its checks (the server may have applied the write).
    public static func sendFinished(_ result: Result<WriteAnswer, TransportError>) -> OperationEvent {
        switch result {
        case let .success(answer): return .answered(answer)
        case .failure(.notSent): return .notSent
        case .failure(.outcomeUnknown), .failure(.invalidAnswer): return .outcomeLost
        }
    }

    /// The event a lookup's result drives.
    public static func lookupFinished(_ result: Result<WriteLookup, TransportError>) -> OperationEvent {
        switch result {
        case let .success(lookup): return .lookedUp(lookup)
        case .failure: return .lookupFailed
        }
    }
}
