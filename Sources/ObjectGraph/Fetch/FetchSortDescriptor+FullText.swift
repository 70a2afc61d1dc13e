extension FetchSortDescriptor {
    /// Best match first, by FTS5's BM25 rank of the predicate's full-text match
    /// (``FetchPredicate/matches(_:)``), which must be one of the conditions that all hold (not
    /// inside an OR or a NOT). Follow it with other keys to order equally good matches.
    ///
    /// Unsaved objects merged into a fetch have no rank; they are ordered by the following keys.
    /// Keyset pagination cannot use this order.
    public static var relevance: FetchSortDescriptor { FetchSortDescriptor(key: FullTextRank.key) }
}

/// The sort key that stands for the full-text rank. `og_` names are reserved, so no attribute can
/// take it.
enum FullTextRank {
    static let key = "og_rank"

    static func isRank(_ path: [String]) -> Bool { path.count == 1 && path[0] == key }
}
