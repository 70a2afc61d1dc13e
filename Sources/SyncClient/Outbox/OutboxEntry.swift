import SyncProtocol

/// One operation of the outbox: a write of one article waiting to reach the server, and where it
/// stands. The library store maps its outbox rows to and from this value; everything in the sync
/// client works on it.
///
/// - `id` is the operation ID, sent as `Idempotency-Key` with every send of this entry. An entry
///   never gets another ID: a write whose answer was lost is resolved by looking the key up or by
///   sending it again under the same key, never as a fresh operation.
/// - `sequence` orders the entries of one article (the order of the saves). Entries of different
///   articles are independent.
/// - `precondition` is nil while the entry waits for its first send: the worker passes the
///   article's base at that moment with `OperationEvent.sendStarted(base:)`, and the reducer
///   fixes it for every later send. A store may set it before (a conflict resolution names the
///   server revision it resolved against); a set precondition is never replaced.
public struct OutboxEntry: Sendable, Hashable, Codable, Identifiable {
    /// The operation ID and idempotency key: 1 to 128 of `A-Z a-z 0-9 - . _ ~` (a UUID string).
    public var id: String
    /// The article written.
    public var articleID: String
    /// The position in the outbox: grows with every save (the row ID serves).
    public var sequence: Int64
    /// The write.
    public var change: OutboxChange
    /// The base it is sent against; nil until the first send.
    public var precondition: WritePrecondition?
    /// Where the operation stands.
    public var state: OperationState

    /// An entry; a new one is `pending` with no precondition yet.
    public init(
        id: String, articleID: String, sequence: Int64, change: OutboxChange,
        precondition: WritePrecondition? = nil, state: OperationState = .pending
    ) {
        self.id = id
        self.articleID = articleID
        self.sequence = sequence
        self.change = change
        self.precondition = precondition
        self.state = state
    }

    /// The request every send and lookup of this entry uses. Nil while the precondition is open,
    /// and for a delete of an article the server never held (`precondition == .absent`), which
    /// needs no request at all.
    public var request: WriteRequest? {
        switch (change, precondition) {
        case (_, nil), (.delete, .absent?):
            return nil
        case let (.put(content), precondition?):
            return WriteRequest(articleID: articleID, idempotencyKey: id, action: .put(content, precondition))
        case let (.delete, .revision(base)?):
            return WriteRequest(articleID: articleID, idempotencyKey: id, action: .delete(base: base))
        }
    }
}
