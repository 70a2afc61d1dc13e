/// What `OperationReducer.reduce` answers: the entry after the event and the effects to perform.
public struct OperationStep: Sendable, Hashable {
    /// The entry with its new state (and its precondition, fixed at the first send).
    public var entry: OutboxEntry
    /// What to do, in order.
    public var effects: [OperationEffect]

    /// A step to `entry` with `effects`.
    public init(entry: OutboxEntry, effects: [OperationEffect]) {
        self.entry = entry
        self.effects = effects
    }
}
