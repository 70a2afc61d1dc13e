import Foundation

/// Translates predicates, sort descriptors and key paths into one SQL statement with bound
/// parameters. Every value becomes a `?`; only names from the schema are spliced in, quoted.
///
/// Key paths through to-one relationships become LEFT JOINs (so a nil relationship reads as NULL);
/// conditions over to-many relationships become membership (`_pk IN (...)`), NOT EXISTS and count
/// subqueries. NOT is pushed down to
/// the leaves, where each comparison is written so that NULL behaves as Swift's nil does (see
/// ``FetchPredicate``), which keeps SQL and in-memory evaluation in agreement.
struct QueryBuilder {
    /// What a query returns per row.
    enum Selection: Equatable {
        /// `_pk`, `_version` and the entity's columns.
        case rows
        /// `_pk` only.
        case keys
        /// The number of matching rows.
        case count
        /// One expression per key path.
        case paths([[String]])
    }

    /// One FROM scope: the root table or a subquery's table, with the joins its key paths need.
    final class Scope {
        let entity: EntityModel
        let alias: String
        var joins: [String] = []
        var joinedAliases: [String: (alias: String, entity: EntityModel)] = [:]

        init(entity: EntityModel, alias: String) {
            self.entity = entity
            self.alias = alias
        }

        var fromClause: String {
            ([ "\(entity.table) AS \(alias)"] + joins).joined(separator: " ")
        }
    }

    /// What a key path leads to.
    enum Target {
        case attribute(sql: String, type: AttributeType)
        /// A to-one relationship; `keySQL` is the destination's primary key (NULL when none).
        case toOne(keySQL: String)
    }

    let model: SchemaModel
    private(set) var bindings: [PrimitiveValue] = []
    /// Where each value of the keyset conditions went in `bindings`.
    private(set) var keysetParameters: [CompiledQuery.KeysetParameter] = []
    /// How many keyset conditions the query holds.
    private(set) var keysetConditionCount = 0
    var aliasCount = 0
    /// The FTS5 rank of the full-text match joined for a sort by relevance (see `joinRankedMatch`).
    var rankTerm: String?

    init(model: SchemaModel) {
        self.model = model
    }

    /// A complete SELECT.
    static func select(
        _ selection: Selection, from entity: EntityModel, model: SchemaModel, where node: PredicateNode?,
        sortedBy sort: [(path: [String], ascending: Bool, order: StringOrder)], limit: Int, offset: Int
    ) throws -> CompiledQuery {
        var builder = QueryBuilder(model: model)
        let scope = builder.makeScope(entity)
        let node = try builder.joinRankedMatch(node, sortedBy: sort, in: scope)
        let condition = try node.map { try builder.condition($0, in: scope, negated: false) }
        var order: [String] = []
        for key in sort {
            if FullTextRank.isRank(key.path) {
                if let rank = builder.rankTerm { order.append(rank + (key.ascending ? " ASC" : " DESC")) }
                continue
            }
            order.append(try builder.orderTerm(key.path, ascending: key.ascending, order: key.order, in: scope))
        }
        switch selection {
        case .count:
            order = []
        case .keys where sort.isEmpty && limit == 0 && offset == 0:
            // Key order is restored by the caller; without ORDER BY, SQLite may read the keys from a
            // small covering index instead of every page of the table.
            break
        default:
            order.append("\(scope.alias)._pk" + (StoreOrder.tiesAscend(sort.lazy.map(\.ascending)) ? "" : " DESC"))
        }
        let columns: String
        switch selection {
        case .rows: columns = entity.selectList(alias: scope.alias)
        case .keys, .count: columns = "\(scope.alias)._pk"
        case .paths(let paths):
            columns = try paths.map { path -> String in
                switch try builder.resolve(path, in: scope) {
                case .attribute(let sql, _): return sql
                case .toOne(let keySQL): return keySQL
                }
            }.joined(separator: ", ")
        }
        var sql = "SELECT \(columns) FROM \(scope.fromClause)"
        if let condition { sql += " WHERE \(condition)" }
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if limit > 0 || offset > 0 {
            sql += " LIMIT \(builder.bind(.integer(Int64(limit > 0 ? limit : -1))))"
            if offset > 0 { sql += " OFFSET \(builder.bind(.integer(Int64(offset))))" }
        }
        if case .count = selection { sql = "SELECT count(*) FROM (\(sql))" }
        return CompiledQuery(
            sql: sql, bindings: builder.bindings,
            keysetParameters: builder.keysetConditionCount == 1 ? builder.keysetParameters : nil)
    }

    // MARK: Scopes and key paths

    mutating func makeScope(_ entity: EntityModel) -> Scope {
        aliasCount += 1
        return Scope(entity: entity, alias: "t\(aliasCount - 1)")
    }

    mutating func bind(_ value: PrimitiveValue) -> String {
        bindings.append(value)
        return "?"
    }

    /// Follows to-one relationships named by `names`, joining their tables, and returns the alias
    /// and entity reached.
    mutating func follow(_ names: ArraySlice<String>, in scope: Scope, path: [String]) throws -> (alias: String, entity: EntityModel) {
        var alias = scope.alias
        var entity = scope.entity
        var joinedPath = ""
        for name in names {
            guard let index = entity.relationshipIndex[name] else {
                throw Self.invalid(path, scope.entity, "'\(name)' is not a relationship of \(entity.name)")
            }
            let relationship = entity.relationships[index]
            guard !relationship.isToMany else {
                throw Self.invalid(path, scope.entity, "'\(name)' is to-many; use any, all or count")
            }
            joinedPath += "." + name
            let destination = model.destination(of: relationship)
            if let joined = scope.joinedAliases[joinedPath] {
                (alias, entity) = joined
                continue
            }
            aliasCount += 1
            let joinAlias = "t\(aliasCount - 1)"
            switch relationship.storage {
            case .foreignKey(let column, _):
                scope.joins.append("LEFT JOIN \(destination.table) AS \(joinAlias) ON \(joinAlias)._pk = \(alias).\(SQL.quote(column))")
            case .inverseForeignKey(let column):
                scope.joins.append("LEFT JOIN \(destination.table) AS \(joinAlias) ON \(joinAlias).\(SQL.quote(column)) = \(alias)._pk")
            case .joinTable:
                throw Self.invalid(path, scope.entity, "'\(name)' is to-many")
            }
            scope.joinedAliases[joinedPath] = (joinAlias, destination)
            (alias, entity) = (joinAlias, destination)
        }
        return (alias, entity)
    }

    /// The SQL of an attribute or to-one relationship at the end of a key path.
    mutating func resolve(_ path: [String], in scope: Scope) throws -> Target {
        guard let last = path.last else { throw Self.invalid(path, scope.entity, "the key path names no property") }
        let (alias, entity) = try follow(path.dropLast(), in: scope, path: path)
        if let index = entity.attributeIndex[last] {
            let attribute = entity.attributes[index]
            guard !attribute.isTransient else { throw Self.invalid(path, scope.entity, "'\(last)' is transient and not stored") }
            return .attribute(sql: "\(alias).\(SQL.quote(last))", type: attribute.type)
        }
        guard let index = entity.relationshipIndex[last] else {
            throw Self.invalid(path, scope.entity, "\(entity.name) has no property '\(last)'")
        }
        let relationship = entity.relationships[index]
        switch relationship.storage {
        case .foreignKey(let column, _):
            return .toOne(keySQL: "\(alias).\(SQL.quote(column))")
        case .inverseForeignKey:
            guard !relationship.isToMany else { throw Self.invalid(path, scope.entity, "'\(last)' is to-many; use any, all or count") }
            let (joined, _) = try follow(path[...], in: scope, path: path)
            return .toOne(keySQL: "\(joined)._pk")
        case .joinTable:
            throw Self.invalid(path, scope.entity, "'\(last)' is to-many; use any, all or count")
        }
    }

    private static func invalid(_ path: [String], _ entity: EntityModel, _ reason: String) -> ObjectGraphError {
        .invalidKeyPath(entity: entity.name, keyPath: path.joined(separator: "."), reason: reason)
    }

    // MARK: Conditions

    /// The SQL of `node` (or of its negation), true only where Swift's semantics say true.
    mutating func condition(_ node: PredicateNode, in scope: Scope, negated: Bool) throws -> String {
        switch node {
        case .constant(let value):
            return value != negated ? "1" : "0"

        case .and(let nodes), .or(let nodes):
            var isAnd = true
            if case .or = node { isAnd = false }
            if negated { isAnd.toggle() }
            guard !nodes.isEmpty else { return isAnd ? "1" : "0" }
            let parts = try nodes.map { try condition($0, in: scope, negated: negated) }
            return "(" + parts.joined(separator: isAnd ? " AND " : " OR ") + ")"

        case .not(let inner):
            return try condition(inner, in: scope, negated: !negated)

        case .comparison(let path, let comparison, let value, let options):
            guard case .attribute(let column, let type) = try resolve(path, in: scope) else {
                throw Self.invalid(path, scope.entity, "compare a relationship with an object, not a value")
            }
            return try compare(column, type: type, comparison, value, options: options, negated: negated, path: path, scope: scope)

        case .objectComparison(let path, let equal, let objectID):
            guard case .toOne(let keySQL) = try resolve(path, in: scope) else {
                throw Self.invalid(path, scope.entity, "only to-one relationships compare with objects")
            }
            let isEqual = equal != negated
            guard let objectID else { return isEqual ? "\(keySQL) IS NULL" : "\(keySQL) IS NOT NULL" }
            // An unsaved object is in no row; key 0 matches nothing.
            let key = bind(.integer(objectID.isTemporaryID ? 0 : objectID.key))
            return isEqual ? "\(keySQL) = \(key)" : "\(keySQL) IS NOT \(key)"

        case .inList(let path, let values):
            guard case .attribute(let column, let type) = try resolve(path, in: scope) else {
                throw Self.invalid(path, scope.entity, "IN takes an attribute")
            }
            let includesNil = values.contains(.null)
            let nonNil = try values.filter { !$0.isNull }.map { try Self.coerce($0, to: type, path: path, of: scope.entity) }
            let list = nonNil.map { bind($0) }.joined(separator: ", ")
            if negated {
                let notIn = nonNil.isEmpty ? "1" : "\(column) NOT IN (\(list))"
                return includesNil ? "(\(column) IS NOT NULL AND \(notIn))" : "(\(notIn) OR \(column) IS NULL)"
            }
            let isIn = nonNil.isEmpty ? "0" : "\(column) IN (\(list))"
            return includesNil ? "(\(isIn) OR \(column) IS NULL)" : isIn

        case .string(let path, let operation, let pattern, let options):
            guard case .attribute(let column, let type) = try resolve(path, in: scope), type == .string || type == .uri else {
                throw Self.invalid(path, scope.entity, "string operators take string attributes")
            }
            let match = "og_match(\(operation.rawValue), \(options.rawValue), \(column), \(bind(.string(pattern))))"
            return negated ? "NOT \(match)" : match

        case .isNil(let path):
            let expression: String
            switch try resolve(path, in: scope) {
            case .attribute(let column, _): expression = column
            case .toOne(let keySQL): expression = keySQL
            }
            return negated ? "\(expression) IS NOT NULL" : "\(expression) IS NULL"

        case .any(let path, let inner) where !negated:
            // Uncorrelated: SQLite builds the members' keys once (through the destination's
            // indexes) instead of probing a subquery for every owner row, which makes a filter on
            // a rare member several times faster.
            return try membershipSubquery(path, in: scope) { builder, innerScope in
                try builder.condition(inner, in: innerScope, negated: false)
            }

        case .any(let path, let inner):
            let exists = try existsSubquery(path, in: scope) { builder, innerScope in
                try builder.condition(inner, in: innerScope, negated: false)
            }
            return "NOT \(exists)"

        case .count(let path, let comparison, let count):
            let subquery = try countSubquery(path, in: scope)
            let sqlOperator = negated ? comparison.negated : comparison
            return "\(subquery) \(sqlOperator.sqlOperator) \(bind(.integer(Int64(count))))"

        case .keyset(let keyset):
            let expression = try keysetCondition(keyset, in: scope)
            return negated ? "NOT \(expression)" : expression

        case .fullText(let query):
            return try fullTextCondition(query, in: scope, negated: negated)
        }
    }

    /// A comparison of a column with a value, two-valued: NULL columns count as Swift's nil.
    private mutating func compare(
        _ column: String, type: AttributeType, _ comparison: ComparisonOperator, _ value: PrimitiveValue,
        options: StringOptions, negated: Bool, path: [String], scope: Scope
    ) throws -> String {
        let effective = negated ? comparison.negated : comparison
        if value.isNull {
            switch effective {
            case .equal: return "\(column) IS NULL"
            case .notEqual: return "\(column) IS NOT NULL"
            default: return negated ? "1" : "0"
            }
        }
        var left = column
        var right = try Self.coerce(value, to: type, path: path, of: scope.entity)
        if !options.isEmpty {
            guard case .string(let text) = right else { throw Self.invalid(path, scope.entity, "string options need a string attribute") }
            left = "og_fold(\(column), \(options.rawValue))"
            right = .string(StringMatching.fold(text, options))
        } else if type == .decimal, comparison != .equal, comparison != .notEqual, case .decimal(let number) = right {
            // Decimals are exact text; order them by their numeric value.
            left = "CAST(\(column) AS REAL)"
            right = .double(NSDecimalNumber(decimal: number).doubleValue)
        }
        let parameter = bind(right)
        switch effective {
        case .equal: return "\(left) = \(parameter)"
        case .notEqual: return "\(left) IS NOT \(parameter)"
        default:
            let test = "\(left) \(effective.sqlOperator) \(parameter)"
            // NOT (x < v) holds for nil x, as it does in Swift.
            return negated ? "(\(test) OR \(column) IS NULL)" : test
        }
    }

    private static func coerce(_ value: PrimitiveValue, to type: AttributeType, path: [String], of entity: EntityModel) throws -> PrimitiveValue {
        guard let coerced = type.coerce(value) else {
            throw ObjectGraphError.wrongValueType(
                entity: entity.name, key: path.joined(separator: "."), expected: type.rawValue, actual: value.kindName)
        }
        return coerced
    }

    /// `EXISTS (SELECT 1 FROM member table ... WHERE linked to the owner AND inner)`.
    private mutating func existsSubquery(
        _ path: [String], in scope: Scope, _ inner: (inout QueryBuilder, Scope) throws -> String
    ) throws -> String {
        let (innerScope, owner, ownerAlias) = try members(path, in: scope)
        let condition = try inner(&self, innerScope)
        return "EXISTS (SELECT 1 FROM \(innerScope.fromClause) WHERE \(owner) = \(ownerAlias)._pk AND \(condition))"
    }

    /// `owner._pk IN (SELECT the member's link to its owner FROM member table ... WHERE inner)`:
    /// the owners with a member matching `inner`. The subquery yields no NULL, so the test is true
    /// or false, never NULL.
    private mutating func membershipSubquery(
        _ path: [String], in scope: Scope, _ inner: (inout QueryBuilder, Scope) throws -> String
    ) throws -> String {
        let (innerScope, owner, ownerAlias) = try members(path, in: scope)
        let condition = try inner(&self, innerScope)
        return "\(ownerAlias)._pk IN (SELECT \(owner) FROM \(innerScope.fromClause) WHERE \(owner) IS NOT NULL AND \(condition))"
    }

    /// The members of the to-many at `path`: a scope over the destination (joined to the join
    /// table for a many-to-many), the expression of each member's owner key, and the owner's alias.
    private mutating func members(_ path: [String], in scope: Scope) throws -> (scope: Scope, owner: String, ownerAlias: String) {
        let (relationship, ownerAlias) = try toMany(path, in: scope)
        let innerScope = makeScope(model.destination(of: relationship))
        switch relationship.storage {
        case .inverseForeignKey(let column):
            return (innerScope, "\(innerScope.alias).\(SQL.quote(column))", ownerAlias)
        case .joinTable(let table, let ownColumn, let otherColumn):
            aliasCount += 1
            let joinAlias = "j\(aliasCount - 1)"
            innerScope.joins.insert("JOIN \(table) AS \(joinAlias) ON \(joinAlias).\(otherColumn) = \(innerScope.alias)._pk", at: 0)
            return (innerScope, "\(joinAlias).\(ownColumn)", ownerAlias)
        case .foreignKey:
            throw Self.invalid(path, scope.entity, "'\(relationship.name)' is to-one")
        }
    }

    private mutating func countSubquery(_ path: [String], in scope: Scope) throws -> String {
        let (relationship, ownerAlias) = try toMany(path, in: scope)
        switch relationship.storage {
        case .inverseForeignKey(let column):
            return "(SELECT count(*) FROM \(model.destination(of: relationship).table) WHERE \(SQL.quote(column)) = \(ownerAlias)._pk)"
        case .joinTable(let table, let ownColumn, _):
            return "(SELECT count(*) FROM \(table) WHERE \(ownColumn) = \(ownerAlias)._pk)"
        case .foreignKey:
            throw Self.invalid(path, scope.entity, "'\(relationship.name)' is to-one")
        }
    }

    /// The to-many relationship at the end of `path` and the alias of its owner.
    private mutating func toMany(_ path: [String], in scope: Scope) throws -> (RelationshipModel, String) {
        guard let last = path.last else { throw Self.invalid(path, scope.entity, "the key path names no property") }
        let (alias, entity) = try follow(path.dropLast(), in: scope, path: path)
        guard let index = entity.relationshipIndex[last], entity.relationships[index].isToMany else {
            throw Self.invalid(path, scope.entity, "'\(last)' is not a to-many relationship of \(entity.name)")
        }
        return (entity.relationships[index], alias)
    }

    // MARK: Order and keysets

    /// One ORDER BY term.
    mutating func orderTerm(_ path: [String], ascending: Bool, order: StringOrder, in scope: Scope) throws -> String {
        guard case .attribute(let column, let type) = try resolve(path, in: scope) else {
            throw Self.invalid(path, scope.entity, "sort by attributes, not relationships")
        }
        var term = type == .decimal ? "CAST(\(column) AS REAL)" : column
        if type == .string, let collation = order.collation { term += " COLLATE \(collation)" }
        return term + (ascending ? " ASC" : " DESC")
    }

    /// The rows after a cursor: `k1 >= v1 AND ((k1 > v1) OR (k1 = v1 AND k2 > v2) OR ... OR
    /// (all equal AND _pk > key))`, each comparison in its key's direction (the key's in the last
    /// key's, see ``StoreOrder``). The leading range lets SQLite walk an index on the first key in
    /// order and stop after the page.
    ///
    /// The text depends on the sort keys and their types only, never on the cursor's values, which
    /// are all parameters (recorded in `keysetParameters`): so a compiled page takes the next
    /// cursor's values in their places (see ``CompiledQuery/substituting(_:in:)``).
    private mutating func keysetCondition(_ keyset: KeysetCondition, in scope: Scope) throws -> String {
        let attributes = try Self.keysetAttributes(keyset, of: scope.entity)
        let values = try Self.keysetValues(keyset, attributes: attributes, of: scope.entity)
        keysetConditionCount += 1
        var columns: [(sql: String, collation: String, isCast: Bool)] = []
        for (index, attribute) in attributes.enumerated() {
            let column = "\(scope.alias).\(SQL.quote(attribute.name))"
            let isCast = attribute.type == .decimal
            let collation = attribute.type == .string ? keyset.orders[index].collation.map { " COLLATE \($0)" } ?? "" : ""
            columns.append((isCast ? "CAST(\(column) AS REAL)" : column, collation, isCast))
        }
        // Binds the cursor's value at `source` (the primary key after the sort keys' values).
        func parameter(_ source: Int) -> String {
            keysetParameters.append(CompiledQuery.KeysetParameter(binding: bindings.count, source: source))
            return bind(values[source])
        }
        let keySource = columns.count
        // Keys all in one direction (ties follow the last key, so the primary key goes that way
        // too): one row-value comparison, which reads each key once per row where the expansion
        // below reads the first key three times (the raw C API's keyset page took 4 % longer with
        // the expansion). SQLite seeks on the first key either way. A collation or a decimal's cast
        // stays with the expansion, whose terms carry them.
        if let direction = keyset.ascending.first, keyset.ascending.allSatisfy({ $0 == direction }),
           columns.allSatisfy({ $0.collation.isEmpty && !$0.isCast }) {
            let keys = columns.map(\.sql) + ["\(scope.alias)._pk"]
            let parameters = (0...keySource).map { parameter($0) }
            return "((\(keys.joined(separator: ", "))) \(direction ? ">" : "<") (\(parameters.joined(separator: ", "))))"
        }
        // Parameters bind in text order, so the leading range is written first.
        var range: String?
        if let first = columns.first {
            range = "\(first.sql) \(keyset.ascending[0] ? ">=" : "<=") \(parameter(0))\(first.collation)"
        }
        var terms: [String] = []
        for index in 0...columns.count {
            var parts: [String] = []
            for earlier in 0..<index {
                parts.append("\(columns[earlier].sql) = \(parameter(earlier))\(columns[earlier].collation)")
            }
            if index < columns.count {
                let comparison = keyset.ascending[index] ? ">" : "<"
                parts.append("\(columns[index].sql) \(comparison) \(parameter(index))\(columns[index].collation)")
            } else {
                let comparison = StoreOrder.tiesAscend(keyset.ascending) ? ">" : "<"
                parts.append("\(scope.alias)._pk \(comparison) \(parameter(keySource))")
            }
            terms.append("(" + parts.joined(separator: " AND ") + ")")
        }
        let expansion = "(" + terms.joined(separator: " OR ") + ")"
        return range.map { "(\($0) AND \(expansion))" } ?? expansion
    }

    /// The attributes a keyset sorts by, checked: required stored attributes of the entity, one
    /// per cursor value.
    static func keysetAttributes(_ keyset: KeysetCondition, of entity: EntityModel) throws -> [AttributeDescription] {
        guard keyset.values.count == keyset.paths.count else {
            throw ObjectGraphError.invalidFetchRequest(entity: entity.name, reason: "the cursor was made for another sort order")
        }
        return try keyset.paths.map { path in
            guard path.count == 1, let index = entity.attributeIndex[path[0]],
                  !entity.attributes[index].isOptional, !entity.attributes[index].isTransient else {
                throw invalid(path, entity, "keyset pagination sorts by required stored attributes of the entity")
            }
            return entity.attributes[index]
        }
    }

    /// The values a keyset condition binds: each cursor value as its attribute stores it (a
    /// decimal as the double its cast column compares with), then the primary key.
    static func keysetValues(_ keyset: KeysetCondition, attributes: [AttributeDescription], of entity: EntityModel) throws -> [PrimitiveValue] {
        var values: [PrimitiveValue] = []
        values.reserveCapacity(attributes.count + 1)
        for (index, attribute) in attributes.enumerated() {
            let value = try coerce(keyset.values[index], to: attribute.type, path: keyset.paths[index], of: entity)
            if case .decimal(let number) = value {
                values.append(.double(NSDecimalNumber(decimal: number).doubleValue))
            } else {
                values.append(value)
            }
        }
        values.append(.integer(keyset.key))
        return values
    }
}

extension ComparisonOperator {
    var sqlOperator: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "<>"
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        }
    }
}
