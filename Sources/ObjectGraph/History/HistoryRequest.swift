/// Which history transactions to fetch.
///
///     var request = HistoryRequest(after: lastToken)
///     request.excludedAuthors = ["sync"]          // not the worker's own writes
///     request.entityNames = ["Article"]
///     let transactions = try container.persistentStore.history.fetch(request)
public struct HistoryRequest: Sendable {
    /// Only transactions after this token; nil for every transaction still kept. A token older than
    /// history that was deleted makes the fetch throw ``ObjectGraphError/historyExpired(after:prunedThrough:)``.
    public var after: HistoryToken?
    /// Only transactions by these authors (nil: any author, including none).
    public var authors: Set<String>?
    /// No transactions by these authors.
    public var excludedAuthors: Set<String> = []
    /// Only changes of these entities; transactions left without changes are left out too.
    public var entityNames: Set<String>?
    /// At most this many transactions (0: no limit).
    public var fetchLimit = 0
    /// Leaves out the transactions of one connection (the store's own, when merging other processes').
    var excludedOrigin: String?

    /// A request for the transactions after `token` (all kept transactions when nil).
    public init(after token: HistoryToken? = nil) {
        after = token
    }
}
