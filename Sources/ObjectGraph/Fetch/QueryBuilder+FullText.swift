extension QueryBuilder {
    /// `_pk IN (the rows the FTS5 table matches)`: set-based, so it combines with any other
    /// condition and with indexes on the entity's table.
    mutating func fullTextCondition(_ query: FullTextQuery, in scope: Scope, negated: Bool) throws -> String {
        let fts = try fullTextTable(of: scope)
        guard !query.isEmpty else { return negated ? "1" : "0" }
        let test = "\(scope.alias)._pk IN (SELECT rowid FROM \(fts) WHERE \(fts) MATCH \(bind(.string(query.expression))))"
        return negated ? "NOT \(test)" : test
    }

    /// For a sort by relevance: joins the FTS5 table on the predicate's top-level full-text match,
    /// so that its `rank` can be ordered by, and returns the predicate without that match (the join
    /// applies it). Call it before anything else binds parameters: the join comes first in the SQL.
    mutating func joinRankedMatch(
        _ node: PredicateNode?, sortedBy sort: [(path: [String], ascending: Bool, order: StringOrder)], in scope: Scope
    ) throws -> PredicateNode? {
        guard sort.contains(where: { FullTextRank.isRank($0.path) }) else { return node }
        guard let (query, rest) = node?.removingTopLevelFullText() else {
            throw ObjectGraphError.invalidFetchRequest(
                entity: scope.entity.name,
                reason: "sorting by relevance needs a full-text match among the predicate's conditions that all hold")
        }
        let fts = try fullTextTable(of: scope)
        // An empty query matches nothing; there is no rank to order by.
        guard !query.isEmpty else { return .constant(false) }
        scope.joins.insert(
            "JOIN \(fts) ON \(fts).rowid = \(scope.alias)._pk AND \(fts) MATCH \(bind(.string(query.expression)))", at: 0)
        rankTerm = "\(fts).rank"
        return rest
    }

    private func fullTextTable(of scope: Scope) throws -> String {
        guard scope.entity.description.fullTextIndex != nil else {
            throw ObjectGraphError.invalidFetchRequest(entity: scope.entity.name, reason: "the entity has no full-text index")
        }
        return FullTextLayout.table(of: scope.entity)
    }
}
