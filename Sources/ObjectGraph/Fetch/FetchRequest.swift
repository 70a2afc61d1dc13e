/// What to fetch: objects of one entity, which ones, in what order, how many, and how eagerly.
///
///     var request = FetchRequest<Article>(
///         predicate: \.isTrashed == false,
///         sortDescriptors: [.descending(\.modifiedAt)])
///     request.fetchLimit = 50
///     let articles = try context.fetch(request)
///
/// Unlike Core Data, ObjectGraph keeps no row cache, so a fault costs a query when it fires. Fetches
/// therefore load full rows by default (`returnsObjectsAsFaults` is false). For large results set
/// `fetchBatchSize`: the fetch reads only IDs, and objects are loaded a batch at a time, the batch
/// around the first one touched.
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// The entity to fetch; nil means the entity whose class is `Result`.
    public var entityName: String? { didSet { compiledQueries = CompiledQueries() } }
    /// Which objects match; nil matches every object of the entity.
    public var predicate: FetchPredicate<Result>? { didSet { compiledQueries = CompiledQueries() } }
    /// The sort order. Objects with equal keys keep their store order (primary key, unsaved
    /// inserted objects after saved ones) in the direction of the last key, so that a descending
    /// sort reads its index backwards to the end: ties of `.descending(\.date)` come newest
    /// object first.
    public var sortDescriptors: [FetchSortDescriptor<Result>] = [] { didSet { compiledQueries = CompiledQueries() } }
    /// At most this many objects (0: no limit).
    public var fetchLimit = 0 { didSet { compiledQueries = CompiledQueries() } }
    /// Skip this many objects first.
    public var fetchOffset = 0 { didSet { compiledQueries = CompiledQueries() } }
    /// When above 0, the fetch reads IDs only and loads objects in batches of this size as they
    /// are used.
    public var fetchBatchSize = 0
    /// When true, objects come back as faults (their rows load in groups when a property is read).
    public var returnsObjectsAsFaults = false
    /// Whether unsaved changes of the context count: inserted objects that match are included,
    /// changed ones are matched on their new values, deleted ones are left out (as in Core Data).
    /// Applies to objects, IDs and counts; dictionary results read only saved data.
    public var includesPendingChanges = true
    /// Whether fetched rows overwrite the values of registered objects that have no changes.
    public var shouldRefreshRefetchedObjects = false
    /// Relationship paths (`"folder"`, `"tags"`, `"folder.owner"`) loaded for the fetched objects in
    /// a few queries, instead of one per object when each is used.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// The SQL this request was translated to, shared by its copies; new whenever a property its SQL
    /// depends on changes.
    var compiledQueries = CompiledQueries()

    /// A request for the entity whose class is `Result`.
    public init(
        predicate: FetchPredicate<Result>? = nil, sortDescriptors: [FetchSortDescriptor<Result>] = [],
        fetchLimit: Int = 0
    ) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
    }

    /// A request for an entity by name (use `Result` = `ManagedObject` for entities without a class).
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// Prefetches a to-one relationship.
    public mutating func prefetch<Target: ManagedObject>(_ keyPath: KeyPath<Result, Target?>) {
        relationshipKeyPathsForPrefetching.append(KeyPathProbe.names(of: keyPath).joined(separator: "."))
    }

    /// Prefetches a to-many relationship.
    public mutating func prefetch<Target: ManagedObject>(_ keyPath: KeyPath<Result, RelatedObjects<Target>>) {
        relationshipKeyPathsForPrefetching.append(KeyPathProbe.names(of: keyPath).joined(separator: "."))
    }

    /// The same request narrowed to the objects after `cursor` in its sort order: the next page of
    /// a keyset (cursor) pagination, which stays fast and stable however deep it goes.
    ///
    ///     let pages = FetchRequest<Article>(sortDescriptors: [.ascending(\.modifiedAt)], fetchLimit: 50)
    ///     var articles = try context.fetch(pages)
    ///     while let last = articles.last {
    ///         // ... show the page ...
    ///         articles = try context.fetch(pages.after(try context.keysetCursor(for: last, in: pages)))
    ///     }
    ///
    /// The sort keys must be required attributes of the entity; the primary key breaks ties (in
    /// the direction of the last key). The pages after cursors of one request share its SQL,
    /// translated once: take each page from the first request, as above, rather than
    /// from the page before it, whose pages would each be translated anew.
    public func after(_ cursor: KeysetCursor) -> FetchRequest {
        var request = self
        let condition = PredicateNode.keyset(KeysetCondition(
            paths: sortDescriptors.map(\.keyPath), ascending: sortDescriptors.map(\.ascending),
            orders: sortDescriptors.map(\.order), values: cursor.values, key: cursor.key))
        request.predicate = FetchPredicate(predicate.map { .and([$0.node, condition]) } ?? condition)
        request.fetchOffset = 0
        // Every page after a cursor of this request has the same SQL, with the cursor's values.
        request.compiledQueries = compiledQueries.keysetPages
        return request
    }
}

/// A position in a sort order (the sort-key values and primary key of one saved object), from
/// `ManagedObjectContext.keysetCursor(for:in:)`. Sendable: it can be kept between page loads.
public struct KeysetCursor: Sendable, Hashable {
    let values: [PrimitiveValue]
    let key: Int64
}
