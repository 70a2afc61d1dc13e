import Foundation

/// Fetching: objects, IDs, counts and dictionaries, merged with the context's unsaved changes when
/// the request asks for it.
extension ManagedObjectContext {
    /// The request resolved against the schema.
    struct FetchPlan {
        let entity: EntityModel
        let predicate: PredicateNode?
        let sort: [(path: [String], ascending: Bool, order: StringOrder)]
        let limit: Int
        let offset: Int
        /// Where the request keeps its translations; nil for a plan that is not the request's.
        let queries: CompiledQueries?
    }

    /// The SQL of a plan's rows, keys or count, translated once per request and kept with it (see
    /// ``CompiledQueries``). A count is not sorted.
    func query(_ selection: QueryBuilder.Selection, _ plan: FetchPlan, limit: Int, offset: Int) throws -> CompiledQuery {
        let translate = {
            try QueryBuilder.select(
                selection, from: plan.entity, model: self.model, where: plan.predicate,
                sortedBy: selection == .count ? [] : plan.sort, limit: limit, offset: offset)
        }
        guard let queries = plan.queries else { return try translate() }
        return try queries.query(
            for: CompiledQueries.Key(model: model, selection: selection, limit: limit, offset: offset),
            predicate: plan.predicate, entity: plan.entity, translate: translate)
    }

    /// The unsaved changes a fetch merges with the store's rows.
    struct PendingChanges {
        /// Saved objects that were changed or deleted: their rows may no longer say the truth.
        var changed: [ManagedObject]
        var inserted: [ManagedObject]

        static var none: PendingChanges { PendingChanges(changed: [], inserted: []) }
    }

    /// One result before objects are made: a saved row by key, or an object from memory.
    struct Entry {
        let key: Int64
        let object: ManagedObject?
    }

    /// Fetches the objects matching `request`, in its sort order.
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws -> FetchedResults<T> {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        releaseUnreferencedObjectsIfNeeded()
        let plan = try self.plan(request)
        let prefetch = request.relationshipKeyPathsForPrefetching.map { $0.split(separator: ".").map(String.init) }
        let lazy = request.fetchBatchSize > 0 || request.returnsObjectsAsFaults
        let pending = request.includesPendingChanges ? pendingChanges(of: plan.entity) : .none

        if !lazy && parent != nil {
            // A child reads through its parent: the keys first, then the objects it lacks, in batches.
            let objects = try entries(plan, pending).map { $0.object ?? object(forKey: $0.key, of: plan.entity) }
            let stale = objects.filter { $0.flags.contains(.fault) || (request.shouldRefreshRefetchedObjects && !$0.hasChanges) }
            for object in stale where !object.flags.contains(.fault) { turnIntoFault(object) }
            try loadRows(of: plan.entity, keys: stale.map(\.key))
            if !prefetch.isEmpty { try self.prefetch(prefetch, for: objects, of: plan.entity) }
            return FetchedResults(storage: .init(context: self, entity: plan.entity, objects: objects))
        }
        if !lazy {
            var objects = try fetchRows(plan, pending, refreshing: request.shouldRefreshRefetchedObjects)
            if !pending.changed.isEmpty || !pending.inserted.isEmpty {
                let additions = try matching(pending, plan)
                objects = try merge(objects.map { Entry(key: $0.key, object: $0) }, additions, plan).map { $0.object! }
            }
            if !prefetch.isEmpty { try self.prefetch(prefetch, for: objects, of: plan.entity) }
            return FetchedResults(storage: .init(context: self, entity: plan.entity, objects: objects))
        }

        let entries = try entries(plan, pending)
        let results = FetchedResults<T>(storage: .init(
            context: self, entity: plan.entity, keys: entries.map(\.key), objects: entries.map(\.object),
            batchSize: request.fetchBatchSize, loadsBatches: !request.returnsObjectsAsFaults, prefetch: prefetch))
        if request.fetchBatchSize == 0 {
            // Faults without batches: make every object now, in fault groups of the default size.
            for index in stride(from: 0, to: results.count, by: EntityModel.keyBatchSize) {
                _ = results.storage.materialize(batchContaining: index)
            }
        }
        return results
    }

    /// The IDs of the objects matching `request`, in its sort order; unsaved inserted objects have
    /// temporary IDs. Loads no object unless unsaved changes must be sorted in.
    public func fetchObjectIDs<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [ManagedObjectID] {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        let plan = try self.plan(request)
        let pending = request.includesPendingChanges ? pendingChanges(of: plan.entity) : .none
        return try entries(plan, pending).map { $0.object?.objectID ?? ManagedObjectID(entity: plan.entity, key: $0.key) }
    }

    /// The number of objects `fetch(request)` would return, counted in SQL when there are no
    /// unsaved changes to include.
    public func count<T: ManagedObject>(for request: FetchRequest<T>) throws -> Int {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        let plan = try self.plan(request)
        return try count(plan, includingPendingChanges: request.includesPendingChanges)
    }

    /// The number of objects a plan finds, counted in SQL when there are no unsaved changes to
    /// include (a child asks its parent).
    func count(_ plan: FetchPlan, includingPendingChanges: Bool = true) throws -> Int {
        let pending = includingPendingChanges ? pendingChanges(of: plan.entity) : .none
        if pending.changed.isEmpty && pending.inserted.isEmpty, let parent {
            return try parent.performAndWait { try parent.count(forChild: plan) }
        }
        if pending.changed.isEmpty && pending.inserted.isEmpty {
            let query = try self.query(.count, plan, limit: plan.limit, offset: plan.offset)
            return try persistentStore.read { connection in
                guard case .integer(let count)? = try connection.scalar(query.sql, query.bindings) else { return 0 }
                return Int(count)
            }
        }
        let unbounded = FetchPlan(entity: plan.entity, predicate: plan.predicate, sort: [], limit: 0, offset: 0, queries: nil)
        let excluded = Set(pending.changed.map(\.key))
        let saved = try keys(unbounded).filter { !excluded.contains($0) }.count
        let total = saved + (try matching(pending, plan).count)
        let afterOffset = max(0, total - plan.offset)
        return plan.limit > 0 ? min(plan.limit, afterOffset) : afterOffset
    }

    /// Values of `propertiesToFetch` (dot-separated key paths through to-one relationships) for each
    /// matching row, read from the store only (unsaved changes are not included, as in Core Data).
    /// Attribute values come as `value(forKey:)` gives them, to-one relationships as
    /// ``ManagedObjectID``s; nil values are left out of the dictionary.
    public func fetchDictionaries<T: ManagedObject>(
        _ request: FetchRequest<T>, propertiesToFetch: [String]
    ) throws -> [[String: any Sendable]] {
        checkAccess()
        let plan = try self.plan(request)
        let paths = propertiesToFetch.map { $0.split(separator: ".").map(String.init) }
        let kinds = try paths.map { try pathKind($0, from: plan.entity) }
        let query = try QueryBuilder.select(
            .paths(paths), from: plan.entity, model: model, where: plan.predicate, sortedBy: plan.sort,
            limit: plan.limit, offset: plan.offset)
        return try persistentStore.read { connection in
            let statement = try connection.statement(query.sql)
            defer { statement.reset() }
            statement.bind(query.bindings)
            var rows: [[String: any Sendable]] = []
            while try statement.step() {
                var row: [String: any Sendable] = [:]
                for (index, kind) in kinds.enumerated() {
                    let column = Int32(index)
                    switch kind {
                    case .attribute(let type):
                        if let value = statement.value(column, as: type).swiftValue { row[propertiesToFetch[index]] = value }
                    case .toOne(let destination):
                        if !statement.isNull(column) {
                            row[propertiesToFetch[index]] = ManagedObjectID(entity: destination, key: statement.int64(column))
                        }
                    }
                }
                rows.append(row)
            }
            return rows
        }
    }

    /// The position of a saved object in the request's sort order, to fetch the page after it with
    /// `request.after(cursor)`.
    public func keysetCursor<T: ManagedObject>(for object: T, in request: FetchRequest<T>) throws -> KeysetCursor {
        checkAccess()
        guard object.key > 0 else {
            throw ObjectGraphError.invalidFetchRequest(
                entity: object.entityModel.name, reason: "a keyset cursor needs a saved object (\(object.objectID) is not)")
        }
        let evaluator = PredicateEvaluator(context: self)
        let values = try request.sortDescriptors.map { descriptor -> PrimitiveValue in
            guard case .attribute(let value) = try evaluator.value(at: descriptor.keyPath, of: object), !value.isNull else {
                throw ObjectGraphError.invalidFetchRequest(
                    entity: object.entityModel.name,
                    reason: "keyset sort key '\(descriptor.keyPath.joined(separator: "."))' must be a non-nil attribute")
            }
            return value
        }
        return KeysetCursor(values: values, key: object.key)
    }

    // MARK: Planning

    func plan<T: ManagedObject>(_ request: FetchRequest<T>) throws -> FetchPlan {
        let entity: EntityModel
        if let name = request.entityName {
            guard let named = model.entity(named: name) else { throw ObjectGraphError.unknownEntity(name) }
            entity = named
        } else {
            guard let classed = model.entity(for: T.self) else { throw ObjectGraphError.unknownEntity("\(T.self)") }
            entity = classed
        }
        guard entity.objectClass is T.Type else {
            throw ObjectGraphError.invalidFetchRequest(
                entity: entity.name, reason: "its objects are \(entity.objectClass), not \(T.self)")
        }
        guard request.fetchLimit >= 0, request.fetchOffset >= 0, request.fetchBatchSize >= 0 else {
            throw ObjectGraphError.invalidFetchRequest(entity: entity.name, reason: "limit, offset and batch size cannot be negative")
        }
        return FetchPlan(
            entity: entity, predicate: request.predicate?.node,
            sort: request.sortDescriptors.map { ($0.keyPath, $0.ascending, $0.order) },
            limit: request.fetchLimit, offset: request.fetchOffset, queries: request.compiledQueries)
    }

    /// The entity's objects with unsaved changes: changed or deleted saved objects (whose rows may
    /// no longer say the truth) and inserted ones.
    func pendingChanges(of entity: EntityModel) -> PendingChanges {
        var seen = Set<ObjectIdentifier>()
        var changed: [ManagedObject] = []
        for object in pendingUpdates + pendingDeletes
        where object.entityModel === entity && !object.flags.contains(.inserted) && object.context === self
            && (object.flags.contains(.updated) || object.flags.contains(.listedAsDeleted)) {
            if seen.insert(ObjectIdentifier(object)).inserted { changed.append(object) }
        }
        let inserted = pendingInserts.filter {
            $0.entityModel === entity && $0.flags.contains(.inserted) && !$0.flags.contains(.deleted)
        }
        return PendingChanges(changed: changed, inserted: inserted)
    }

    /// The unsaved objects that match, sorted.
    private func matching(_ pending: PendingChanges, _ plan: FetchPlan) throws -> [ManagedObject] {
        let evaluator = PredicateEvaluator(context: self)
        var matches: [ManagedObject] = []
        for object in pending.changed + pending.inserted where !object.flags.contains(.deleted) {
            if try plan.predicate.map({ try evaluator.evaluate($0, on: object) }) ?? true { matches.append(object) }
        }
        var failure: (any Error)?
        matches.sort { lhs, rhs in
            do { return try evaluator.areInIncreasingOrder(lhs, rhs, plan.sort) } catch {
                failure = failure ?? error
                return false
            }
        }
        if let failure { throw failure }
        return matches
    }

    // MARK: Running

    /// Full rows, registered as objects. With pending changes the SQL limit is widened by their
    /// number (each changed row may drop out) and the offset is applied after merging.
    private func fetchRows(
        _ plan: FetchPlan, _ pending: PendingChanges, refreshing: Bool
    ) throws -> [ManagedObject] {
        let merging = !pending.changed.isEmpty || !pending.inserted.isEmpty
        let limit = plan.limit > 0 ? plan.limit + (merging ? plan.offset + pending.changed.count : 0) : 0
        let query = try self.query(.rows, plan, limit: limit, offset: merging ? 0 : plan.offset)
        let excluded = Set(pending.changed.map(\.key))
        let entity = plan.entity
        var objects: [ManagedObject] = []
        // New objects join the identity map after the loop, in one go, so the map grows once.
        var fresh: [Int] = []
        // A context holding no object of the entity yet (a new one, the usual first fetch) has
        // none to find: rows become objects without a lookup each, and all of them are new.
        let mayHoldObjects = registered[entity.number].count > 0
        try persistentStore.read { connection in
            let statement = try connection.statement(query.sql)
            defer { statement.reset() }
            statement.bind(query.bindings)
            while try statement.step() {
                if mayHoldObjects, let object = registeredObject(forRow: statement, of: entity, firstColumn: 0, refreshing: refreshing) {
                    if merging && excluded.contains(object.key) { continue }
                    objects.append(object)
                } else {
                    if mayHoldObjects { fresh.append(objects.count) }
                    objects.append(makeObject(forRow: statement, of: entity, firstColumn: 0))
                }
            }
        }
        let all = 0..<objects.count
        let duplicates = mayHoldObjects
            ? registered[entity.number].register(&objects, at: fresh)
            : registered[entity.number].register(&objects, at: all)
        for object in duplicates { object.context = nil }
        return objects
    }

    /// The matching keys in the plan's order (for a child, as its parent sees them).
    private func keys(_ plan: FetchPlan) throws -> [Int64] {
        if let parent { return try parent.performAndWait { try parent.keys(forChild: plan) } }
        let query = try self.query(.keys, plan, limit: plan.limit, offset: plan.offset)
        var keys = try persistentStore.read { try $0.integers(query.sql, query.bindings) }
        // Without sort descriptors or a limit the query has no ORDER BY (see `QueryBuilder`).
        if plan.sort.isEmpty && plan.limit == 0 && plan.offset == 0 && !keys.isSorted { keys.sort() }
        return keys
    }

    /// The results as keys, with unsaved changes merged in when there are any.
    func entries(_ plan: FetchPlan, _ pending: PendingChanges) throws -> [Entry] {
        if pending.changed.isEmpty && pending.inserted.isEmpty {
            return try keys(plan).map { Entry(key: $0, object: nil) }
        }
        let widened = FetchPlan(
            entity: plan.entity, predicate: plan.predicate, sort: plan.sort,
            limit: plan.limit > 0 ? plan.offset + plan.limit + pending.changed.count : 0, offset: 0, queries: plan.queries)
        let excluded = Set(pending.changed.map(\.key))
        let saved = try keys(widened).filter { !excluded.contains($0) }.map { Entry(key: $0, object: nil) }
        return try merge(saved, try matching(pending, plan), plan)
    }

    /// Inserts sorted unsaved objects into sorted saved results (binary search per object, reading
    /// only the rows it compares with), then applies offset and limit.
    private func merge(_ saved: [Entry], _ additions: [ManagedObject], _ plan: FetchPlan) throws -> [Entry] {
        let evaluator = PredicateEvaluator(context: self)
        var result: [Entry] = []
        result.reserveCapacity(saved.count + additions.count)
        var next = 0
        for addition in additions {
            var low = next
            var high = saved.count
            while low < high {
                let middle = (low + high) / 2
                let probe = saved[middle].object ?? object(forKey: saved[middle].key, of: plan.entity)
                if try evaluator.areInIncreasingOrder(probe, addition, plan.sort) { low = middle + 1 } else { high = middle }
            }
            result.append(contentsOf: saved[next..<low])
            result.append(Entry(key: addition.key, object: addition))
            next = low
        }
        result.append(contentsOf: saved[next...])
        let start = min(plan.offset, result.count)
        let end = plan.limit > 0 ? min(start + plan.limit, result.count) : result.count
        return Array(result[start..<end])
    }

    // MARK: Key paths

    enum PathKind {
        case attribute(AttributeType)
        case toOne(EntityModel)
    }

    /// What a dot-separated key path leads to, checking each step.
    func pathKind(_ path: [String], from root: EntityModel) throws -> PathKind {
        var entity = root
        for (position, name) in path.enumerated() {
            let isLast = position == path.count - 1
            if isLast, let index = entity.attributeIndex[name] { return .attribute(entity.attributes[index].type) }
            guard let index = entity.relationshipIndex[name], !entity.relationships[index].isToMany else {
                throw ObjectGraphError.invalidKeyPath(
                    entity: root.name, keyPath: path.joined(separator: "."),
                    reason: "'\(name)' is not an attribute or to-one relationship of \(entity.name)")
            }
            entity = model.destination(of: entity.relationships[index])
            if isLast { return .toOne(entity) }
        }
        throw ObjectGraphError.invalidKeyPath(entity: root.name, keyPath: "", reason: "the key path names no property")
    }
}

extension Array where Element == Int64 {
    var isSorted: Bool {
        var previous = Int64.min
        for key in self {
            if key < previous { return false }
            previous = key
        }
        return true
    }
}
