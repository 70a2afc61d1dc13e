/// A fetched-results controller's fetch request resolved against the schema: the entity, the
/// query that reads every matching row's key and sort-key values in order, the columns that keep
/// those values, and which changed keys can affect a row's membership or position.
struct FetchedResultsPlan {
    let entity: EntityModel
    let predicate: PredicateNode?
    let sortPaths: [[String]]
    /// The empty columns of a new ``SortKeyTable``, one per sort descriptor.
    let columns: [SortKeyColumn]
    /// `SELECT t0._pk, <sort values> FROM ... WHERE ... ORDER BY <sort>, t0._pk`.
    let sql: String
    let bindings: [PrimitiveValue]
    /// The properties (first steps of key paths) the predicate reads: a change of one may make an
    /// object start or stop matching.
    let predicateKeys: PropertyMask
    /// The properties the sort descriptors read: a change of one may move an object.
    let sortKeys: PropertyMask
    let isSectioned: Bool

    init<Result: ManagedObject>(
        _ request: FetchRequest<Result>, sectionNameKeyPath: String?, context: ManagedObjectContext
    ) throws(FetchedResultsError) {
        let plan: ManagedObjectContext.FetchPlan
        do {
            plan = try context.plan(request)
        } catch let error as ObjectGraphError {
            throw .invalidFetchRequest(error)
        } catch {
            preconditionFailure("planning a fetch throws ObjectGraphError only, not \(error)")
        }
        let entity = plan.entity
        guard let firstSort = request.sortDescriptors.first else { throw .missingSortDescriptors(entity: entity.name) }
        guard request.fetchLimit == 0, request.fetchOffset == 0 else {
            throw .unsupportedFetchRequest(
                entity: entity.name, reason: "fetchLimit and fetchOffset are not supported: a controller tracks every matching object")
        }
        guard request.includesPendingChanges else {
            throw .unsupportedFetchRequest(
                entity: entity.name, reason: "includesPendingChanges must be true: a controller shows the context's objects as they are")
        }
        guard context.parent == nil else {
            throw .unsupportedContext(
                entity: entity.name, reason: "a child context is not supported; use a context on the store, such as the view context")
        }
        if let sectionNameKeyPath {
            let firstKey = firstSort.keyPath.joined(separator: ".")
            guard sectionNameKeyPath == firstKey else {
                throw .sectionKeyPathNotFirstSortKey(entity: entity.name, sectionNameKeyPath: sectionNameKeyPath, firstSortKey: firstKey)
            }
        }

        var builder = QueryBuilder(model: context.model)
        let scope = builder.makeScope(entity)
        var columns: [SortKeyColumn] = []
        var selected = ["\(scope.alias)._pk"]
        var order: [String] = []
        do {
            for descriptor in request.sortDescriptors {
                order.append(try builder.orderTerm(descriptor.keyPath, ascending: descriptor.ascending, order: descriptor.order, in: scope))
                guard case .attribute(let sql, let type) = try builder.resolve(descriptor.keyPath, in: scope) else {
                    preconditionFailure("orderTerm accepts attributes only")
                }
                let column = SortKeyColumn(type: type, ascending: descriptor.ascending, order: descriptor.order)
                selected.append(column.selectExpression(sql))
                columns.append(column)
            }
            let condition = try plan.predicate.map { try builder.condition($0, in: scope, negated: false) }
            order.append("\(scope.alias)._pk")
            var sql = "SELECT \(selected.joined(separator: ", ")) FROM \(scope.fromClause)"
            if let condition { sql += " WHERE \(condition)" }
            self.sql = sql + " ORDER BY " + order.joined(separator: ", ")
        } catch let error as ObjectGraphError {
            throw .invalidFetchRequest(error)
        } catch {
            preconditionFailure("building a query throws ObjectGraphError only, not \(error)")
        }
        if sectionNameKeyPath != nil, columns[0].kind == .text, columns[0].order != .binary {
            throw .sectionKeyPathNotBinaryOrder(entity: entity.name, sectionNameKeyPath: sectionNameKeyPath!)
        }

        self.entity = entity
        predicate = plan.predicate
        sortPaths = request.sortDescriptors.map(\.keyPath)
        self.columns = columns
        bindings = builder.bindings
        var predicateKeys = PropertyMask()
        plan.predicate?.forEachKeyPath { path in
            if let position = entity.position(ofProperty: path[0]) { predicateKeys.insert(position) }
        }
        self.predicateKeys = predicateKeys
        var sortKeys = PropertyMask()
        for path in sortPaths {
            if let position = entity.position(ofProperty: path[0]) { sortKeys.insert(position) }
        }
        self.sortKeys = sortKeys
        isSectioned = sectionNameKeyPath != nil
    }

    /// The ID of the row with `key`.
    func objectID(forKey key: Int64) -> ManagedObjectID {
        ManagedObjectID(entity: entity, key: key)
    }

    /// Whether `objectID` names an object of the plan's entity in the context's store.
    func contains(_ objectID: ManagedObjectID) -> Bool {
        objectID.entity === entity
            || objectID.entity.name == entity.name && objectID.entity.storeIdentifier == entity.storeIdentifier
    }
}

extension PredicateNode {
    /// Calls `body` with every key path the predicate reads from its root object (not those a
    /// to-many condition reads from the members).
    func forEachKeyPath(_ body: ([String]) -> Void) {
        switch self {
        case .constant:
            break
        case .comparison(let path, _, _, _), .objectComparison(let path, _, _), .inList(let path, _),
             .string(let path, _, _, _), .isNil(let path), .any(let path, _), .count(let path, _, _):
            if !path.isEmpty { body(path) }
        case .and(let nodes), .or(let nodes):
            for node in nodes { node.forEachKeyPath(body) }
        case .not(let inner):
            inner.forEachKeyPath(body)
        case .keyset(let keyset):
            for path in keyset.paths where !path.isEmpty { body(path) }
        }
    }
}

extension PropertyMask {
    /// Whether the two sets share a position.
    func intersects(_ other: PropertyMask) -> Bool {
        var found = false
        forEach { position in if !found && other.contains(position) { found = true } }
        return found
    }
}
