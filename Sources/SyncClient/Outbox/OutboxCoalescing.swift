/// The outcome of `Outbox.coalesce`: the outbox after it, and the row changes that get the store
/// there (in one transaction).
public struct OutboxCoalescing: Sendable, Hashable {
    /// The entries after coalescing, in `sequence` order.
    public var entries: [OutboxEntry]
    /// Entries that absorbed later ones: the store writes their new `change`.
    public var rewritten: [OutboxEntry]
    /// IDs of the entries absorbed into an earlier one: the store deletes them.
    public var removed: [String]

    /// A coalescing outcome.
    public init(entries: [OutboxEntry], rewritten: [OutboxEntry], removed: [String]) {
        self.entries = entries
        self.rewritten = rewritten
        self.removed = removed
    }

    /// Whether coalescing changed nothing.
    public var isEmpty: Bool { rewritten.isEmpty && removed.isEmpty }
}
