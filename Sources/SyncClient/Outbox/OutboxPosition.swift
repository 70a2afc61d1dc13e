/// What the outbox's order and readiness depend on: an entry's article, place and state, without
/// its content. ``Outbox/heads(_:)``, ``Outbox/ready(_:at:)`` and ``Outbox/nextWakeUp(_:)`` take
/// any of them.
public protocol OutboxOrdered {
    /// The operation ID.
    var id: String { get }
    /// The article written.
    var articleID: String { get }
    /// The position in the outbox.
    var sequence: Int64 { get }
    /// Where the operation stands.
    var state: OperationState { get }
}

extension OutboxEntry: OutboxOrdered {}

/// An outbox entry without its content: what the worker reads of the whole outbox at every round
/// to choose the articles it sends next, before it reads the content of those articles only.
public struct OutboxPosition: OutboxOrdered, Sendable, Hashable {
    /// The operation ID.
    public var id: String
    /// The article written.
    public var articleID: String
    /// The position in the outbox.
    public var sequence: Int64
    /// Where the operation stands.
    public var state: OperationState

    /// A position.
    public init(id: String, articleID: String, sequence: Int64, state: OperationState) {
        self.id = id
        self.articleID = articleID
        self.sequence = sequence
        self.state = state
    }
}
