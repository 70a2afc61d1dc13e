extension FetchPredicate {
    /// Objects whose full-text index holds every term of `query` (see ``FullTextQuery``). The
    /// entity must declare a ``FullTextIndex``; the condition composes with every other one, and
    /// ``FetchSortDescriptor/relevance`` orders the results by how well they match.
    ///
    ///     .matches(FullTextQuery(searchField.text)) && .isNil(\.trashed)
    public static func matches(_ query: FullTextQuery) -> FetchPredicate {
        FetchPredicate(.fullText(query))
    }
}

extension PredicateNode {
    /// The first full-text match among the conditions that must all hold (the node itself or the
    /// members of top-level ANDs), and the node without it: what a sort by relevance ranks by.
    func removingTopLevelFullText() -> (query: FullTextQuery, rest: PredicateNode)? {
        switch self {
        case .fullText(let query):
            return (query, .constant(true))
        case .and(let nodes):
            for (index, node) in nodes.enumerated() {
                guard let (query, rest) = node.removingTopLevelFullText() else { continue }
                var remaining = nodes
                remaining[index] = rest
                return (query, .and(remaining))
            }
            return nil
        default:
            return nil
        }
    }
}
