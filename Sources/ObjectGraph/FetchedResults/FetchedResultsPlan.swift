/// A fetched-results controller's fetch request resolved against the schema: the entity, the
/// query that reads every matching row's key and sort-key values in order (and the same for given
/// rows), and the columns that keep those values.
struct FetchedResultsPlan {
    let entity: EntityModel
    let predicate: PredicateNode?
    let sortPaths: [[String]]
    /// Whether a row's own values decide whether it matches and where it goes: the predicate and
    /// the sort keys read only stored attributes of the entity (no relationship, full-text match,
    /// transient or binary value), so a saved object's values can stand for its row (``SavedValues``).
    let evaluatesRowValues: Bool
    /// The empty columns of a new ``SortKeyTable``, one per sort descriptor.
    let columns: [SortKeyColumn]
    /// `SELECT t0._pk, <sort values> FROM ... WHERE ... ORDER BY <sort>, t0._pk [DESC]` (ties in
    /// ``StoreOrder``).
    let sql: String
    /// The same rows among `keyBatchSize` primary keys (parameters after `bindings`; unused ones
    /// bound NULL), unordered: how rows are evaluated as a fetch would evaluate them.
    let sqlForKeys: String
    /// The same for one primary key (the parameter after `bindings`): one save of one object,
    /// the usual change, binds one key instead of a list of mostly NULLs.
    let sqlForKey: String
    /// The predicate's parameters.
    let bindings: [PrimitiveValue]
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
            order.append("\(scope.alias)._pk" + (StoreOrder.tiesAscend(columns.lazy.map(\.ascending)) ? "" : " DESC"))
            let select = "SELECT \(selected.joined(separator: ", ")) FROM \(scope.fromClause)"
            sql = select + (condition.map { " WHERE \($0)" } ?? "") + " ORDER BY " + order.joined(separator: ", ")
            let keys = "\(scope.alias)._pk IN (" + Array(repeating: "?", count: EntityModel.keyBatchSize).joined(separator: ", ") + ")"
            sqlForKeys = select + " WHERE " + (condition.map { "(\($0)) AND " } ?? "") + keys
            sqlForKey = select + " WHERE " + (condition.map { "(\($0)) AND " } ?? "") + "\(scope.alias)._pk = ?"
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
        evaluatesRowValues = sortPaths.allSatisfy { Self.isStoredAttribute($0, of: entity) }
            && (predicate.map { Self.readsStoredAttributesOnly($0, of: entity) } ?? true)
        self.columns = columns
        bindings = builder.bindings
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

    private static func readsStoredAttributesOnly(_ node: PredicateNode, of entity: EntityModel) -> Bool {
        switch node {
        case .constant:
            return true
        case .and(let nodes), .or(let nodes):
            return nodes.allSatisfy { readsStoredAttributesOnly($0, of: entity) }
        case .not(let inner):
            return readsStoredAttributesOnly(inner, of: entity)
        case .comparison(let path, _, _, _), .inList(let path, _), .string(let path, _, _, _), .isNil(let path):
            return isStoredAttribute(path, of: entity)
        case .objectComparison, .any, .count, .keyset, .fullText:
            return false
        }
    }

    private static func isStoredAttribute(_ path: [String], of entity: EntityModel) -> Bool {
        guard path.count == 1, let index = entity.attributeIndex[path[0]] else { return false }
        let attribute = entity.attributes[index]
        return !attribute.isTransient && attribute.type != .binaryData
    }
}
