/// The outcome of `Outbox.coalesce`: the outbox after it, and the row changes that get the store
/// there (in one transaction).
public struct OutboxCoalescing: Sendable, Hashable {
    /// The entries after coalescing, in `sequence` order.
    public var entries: [OutboxEntry]
    /// Entries that absorbed later ones: the store writes their new `change`.
    public var rewritten: [OutboxEntry]
    /// IDs of the entries absorbed into an earlier one, in `sequence` order: the store deletes
    /// them.
    public var removed: [String]
    /// For each removed entry, the ID of the entry that now carries its change (for a store that
    /// tracks which operation delivers a saved edit).
    public var absorbedInto: [String: String]

    /// A coalescing outcome.
    public init(entries: [OutboxEntry], rewritten: [OutboxEntry], removed: [String], absorbedInto: [String: String]) {
        self.entries = entries
        self.rewritten = rewritten
        self.removed = removed
        self.absorbedInto = absorbedInto
    }

    /// Whether coalescing changed nothing.
    public var isEmpty: Bool { rewritten.isEmpty && removed.isEmpty }
}
