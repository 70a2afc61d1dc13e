import Foundation

/// The objects a fetch request matches, kept up to date as its context changes, for a list that
/// shows them: NSFetchedResultsController for ObjectGraph.
///
///     var request = FetchRequest<Article>(predicate: \.isTrashed == false, sortDescriptors: [.descending(\.modifiedAt)])
///     let controller = try FetchedResultsController(fetchRequest: request, context: viewContext)
///     controller.delegate = articleList
///     try controller.performFetch()
///     let first = controller.object(at: 0)          // a fault; reading it loads its batch
///     let position = controller.index(of: first.objectID)
///
/// - The results are kept as object IDs with the values of their sort keys, in an order-statistic
///   tree: after `performFetch()` no object is loaded. `object(at:)` makes the batch of objects
///   around the one asked for faults that load together, in one query, when one is read.
/// - The controller observes its context, including merges of other contexts' saves, batch
///   operations and other processes' transactions. Each `objectsDidChange` becomes one batch of
///   changes for the ``delegate``: an object that starts or stops matching is inserted or deleted,
///   one whose sort keys change is moved, any other change of an object in the results is an
///   update. Only the objects a change names are looked at: a change of one object costs
///   O(log n) in the number of results, and the fetch is never run again, except after the
///   context's `reset()` or `refreshAllObjects()` (reported as a reload).
/// - With a `sectionNameKeyPath` (the key path of the first sort descriptor) the results are
///   grouped into sections of equal values of that key.
///
/// Like its context, a controller is used on the context's queue; the delegate is called there.
/// Changes of related objects are not reported for the objects that point to them, so a predicate
/// or sort key through a relationship (`\.folder?.name`) is evaluated again only when the object
/// itself changes, as in Core Data.
public final class FetchedResultsController<Result: ManagedObject> {
    /// The context the results come from and that the controller observes.
    public let context: ManagedObjectContext
    /// What the controller fetches. Setting it takes effect at the next ``performFetch()``.
    public var fetchRequest: FetchRequest<Result>
    /// The key path of the first sort descriptor when the results are grouped into sections.
    public let sectionNameKeyPath: String?
    /// Told of every change of the results, on the context's queue.
    public weak var delegate: (any FetchedResultsControllerDelegate<Result>)?

    /// The state of the last fetch.
    typealias Results = FetchedRows

    private(set) var results: Results?
    /// Whether the results may hold only the first rows of more (``performFetch(firstRows:)``).
    public private(set) var hasMoreRows = false
    private var observation: ContextObservation?
    /// The objects of the last prefetched range, kept so that the context does not let them go
    /// before they are shown.
    private var prefetched: [ManagedObject] = []
    /// The whole fetch whose rows are being read on another thread
    /// (``performFetchInBackground(then:)``), if any.
    var backgroundFetch: BackgroundFetch?

    /// A controller for the objects `fetchRequest` matches in `context`, which must be a context on
    /// the store (the view context, usually). Call ``performFetch()`` to fetch.
    ///
    /// Throws when the request has no sort descriptor, when `sectionNameKeyPath` is not the key
    /// path of the first one (dot-separated, as `"folder.name"`), or when the request asks for a
    /// limit, an offset or no pending changes, which a controller does not support.
    public init(
        fetchRequest: FetchRequest<Result>, context: ManagedObjectContext, sectionNameKeyPath: String? = nil
    ) throws(FetchedResultsError) {
        _ = try FetchedResultsPlan(fetchRequest, sectionNameKeyPath: sectionNameKeyPath, context: context)
        self.context = context
        self.fetchRequest = fetchRequest
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    deinit {
        cancelBackgroundFetch()
    }

    // MARK: Fetching

    /// Fetches the matching objects' IDs and sort-key values (one query, no objects loaded),
    /// merges in the context's unsaved changes, and starts observing the context. The delegate is
    /// told with ``FetchedResultsControllerDelegate/controllerDidReloadContent(_:)``.
    ///
    /// On failure the previous results (if any) stay as they were.
    public func performFetch() throws {
        context.checkAccess()
        try refetch()
        observeAndReportReload()
    }

    /// Fetches only the first `count` matching objects (the request's query with a `LIMIT`), as
    /// ``performFetch()`` does otherwise: for a list's first screen, shown before the whole
    /// fetch, when a query matches much of a large store (a search's first letter: the first 100
    /// of 100,000 rows cost a tenth of them all). ``hasMoreRows`` tells whether more may match;
    /// then call ``performFetch()`` for them all.
    ///
    /// Until then, changes of the context are followed as usual, among the rows fetched: an
    /// object that starts to match joins them where it sorts, after the last of them too,
    /// although a whole fetch could put other objects before it.
    public func performFetch(firstRows count: Int) throws {
        precondition(count > 0, "a first screen has rows")
        context.checkAccess()
        cancelBackgroundFetch()
        let (fetched, hasMore) = try fetch(limit: count)
        replaceResults(with: fetched, hasMoreRows: hasMore)
        observeAndReportReload()
    }

    /// Makes `fetched` the results.
    func replaceResults(with fetched: Results, hasMoreRows: Bool) {
        results = fetched
        prefetched = []
        self.hasMoreRows = hasMoreRows
    }

    /// Observes the context from now on, once.
    func observe() {
        if observation == nil {
            observation = context.addObserver { [weak self] notification in self?.handle(notification) }
        }
    }

    func observeAndReportReload() {
        observe()
        delegate?.controllerDidReloadContent(self)
    }

    /// Replaces the results with new ones (nothing changes if fetching fails). A fetch in the
    /// background is given up: its rows would be older.
    func refetch() throws {
        cancelBackgroundFetch()
        replaceResults(with: try fetch(limit: nil).results, hasMoreRows: false)
    }

    /// Runs the request (its first `limit` rows, when given) and returns the new results, and
    /// whether the limit may have left rows out.
    private func fetch(limit: Int?) throws -> (results: Results, hasMore: Bool) {
        let plan = try FetchedResultsPlan(fetchRequest, sectionNameKeyPath: sectionNameKeyPath, context: context)
        let pending = pendingKeys(of: plan)
        let (table, rowCount) = try context.persistentStore.read { connection in
            try FetchedRows.read(plan, limit: limit, excluding: pending.excluded, on: connection)
        }
        let results = FetchedRows(plan: plan, table: table, count: rowCount)
        try place(pending.placed, in: results)
        // Rows of objects with unsaved changes were read and skipped: they count against the limit.
        return (results, limit.map { rowCount + pending.excluded.count >= $0 } ?? false)
    }

    /// The keys of the objects with unsaved changes that a fetch places from memory: the changed
    /// and deleted ones, whose rows may no longer say the truth (`excluded` from the rows read),
    /// and those plus the inserted ones (`placed`).
    func pendingKeys(of plan: FetchedResultsPlan) -> (excluded: Set<Int64>, placed: [Int64]) {
        let pending = context.pendingChanges(of: plan.entity)
        let placed = (pending.changed + pending.inserted).filter { !$0.flags.contains(.deleted) }.map(\.key)
        return (Set(pending.changed.map(\.key)), placed)
    }

    /// Places the objects with `keys` as a fetch would place them now: their rows, if any, are
    /// taken out, and those that match are put back where they sort. Nothing changes if reading
    /// their rows fails.
    func place(_ keys: [Int64], in results: Results) throws {
        let evaluated = try evaluate(keys, in: results)
        for key in keys {
            guard let slot = results.table.slot(forKey: key) else { continue }
            removeRow(slot, in: results)
            results.table.release(slot)
        }
        for (_, slot) in evaluated {
            insertRow(slot, in: results)
            results.table.index(slot)
        }
    }

    /// The rows of the objects with `keys` that match the request now, each in a new slot of the
    /// results' table (not yet found by its key); unmatched and vanished objects are left out.
    ///
    /// As a fetch does: objects with unsaved changes are evaluated in memory, every other object
    /// by its row in the store (with the request's own query, so no object is loaded, and an
    /// object whose values in memory are out of date is placed by what the store holds). A row
    /// whose values `savedValues` holds, while they are still the store's latest commit and its
    /// values alone decide it (``FetchedResultsPlan/evaluatesRowValues``), is evaluated from
    /// them, as an object of its own that no context knows.
    func evaluate(_ keys: [Int64], in results: Results, savedValues: SavedValues? = nil) throws -> [(key: Int64, slot: Int32)] {
        guard !keys.isEmpty else { return [] }
        let plan = results.plan
        let table = results.table
        var pending: [ManagedObject] = []
        var saved: [Int64] = []
        let savedRows = savedValues.flatMap { plan.evaluatesRowValues && context.persistentStore.holdsLatest($0) ? $0.rows : nil }
        for key in keys {
            if let object = context.registeredObject(forKey: key, of: plan.entity), object.context === context,
               object.flags.contains(.inserted) || object.flags.contains(.updated) || object.flags.contains(.listedAsDeleted) {
                if !object.flags.contains(.deleted) { pending.append(object) }
            } else if let values = savedRows?[plan.objectID(forKey: key)] {
                pending.append(plan.entity.objectClass.init(ObjectInitialization(entity: plan.entity, key: key, values: values, rowVersion: 0)))
            } else if key > 0 {
                saved.append(key)
            }
        }
        var slots: [Int64: Int32] = [:]
        do {
            if !saved.isEmpty { try readRows(saved, into: &slots, of: results) }
            let evaluator = PredicateEvaluator(context: context)
            for object in pending {
                do {
                    if let predicate = plan.predicate, try !evaluator.evaluate(predicate, on: object) { continue }
                    let values = try plan.sortPaths.map { path -> PrimitiveValue in
                        guard case .attribute(let value) = try evaluator.value(at: path, of: object) else {
                            preconditionFailure("sort key paths end in attributes (checked when planned)")
                        }
                        return value
                    }
                    slots[object.key] = table.makeSlot(key: object.key, values: values)
                } catch ObjectGraphError.objectNotFound {
                    // An object a key path passes through was deleted in the store: not a match.
                    continue
                }
            }
        } catch {
            for slot in slots.values { table.release(slot) }
            throw error
        }
        return keys.compactMap { key in slots[key].map { (key, $0) } }
    }

    /// Reads the rows with `keys` that match the request, with the request's own query,
    /// `keyBatchSize` keys at a time, each into a new slot.
    private func readRows(_ keys: [Int64], into slots: inout [Int64: Int32], of results: Results) throws {
        let plan = results.plan
        try context.persistentStore.read { connection in
            let first = Int32(plan.bindings.count + 1)
            if keys.count == 1 {
                let statement = try connection.statement(plan.sqlForKey)
                defer { statement.reset() }
                statement.bind(plan.bindings)
                statement.bind(keys[0], at: first)
                while try statement.step() {
                    let slot = results.table.makeSlot(from: statement)
                    slots[results.table.key(of: slot)] = slot
                }
                return
            }
            let statement = try connection.statement(plan.sqlForKeys)
            defer { statement.reset() }
            for start in stride(from: 0, to: keys.count, by: EntityModel.keyBatchSize) {
                statement.bind(plan.bindings)
                for offset in 0..<EntityModel.keyBatchSize {
                    let parameter = first + Int32(offset)
                    if start + offset < keys.count { statement.bind(keys[start + offset], at: parameter) } else { statement.bindNull(at: parameter) }
                }
                while try statement.step() {
                    let slot = results.table.makeSlot(from: statement)
                    slots[results.table.key(of: slot)] = slot
                }
                statement.reset()
            }
        }
    }

    // MARK: Results

    /// The fetched objects: a random-access view of the current results that makes objects as
    /// they are read (see ``object(at:)``); nil before ``performFetch()``.
    public var fetchedObjects: FetchedObjects<Result>? {
        results == nil ? nil : FetchedObjects(controller: self)
    }

    /// The number of objects (0 before ``performFetch()``).
    public var count: Int {
        results?.tree.count ?? 0
    }

    /// The ID of the object at `index`, without making the object. O(log n).
    public func objectID(at index: Int) -> ManagedObjectID {
        let results = fetched()
        return results.plan.objectID(forKey: results.table.key(of: results.slot(at: index)))
    }

    /// The object at `index`, as a fault unless it is loaded. The first object asked for in a batch
    /// of 100 makes that batch's objects faults that load together when one of them is read.
    public func object(at index: Int) -> Result {
        let results = fetched()
        let object = context.object(forKey: results.table.key(of: results.slot(at: index)), of: results.plan.entity)
        if object.flags.contains(.fault) && object.faultGroup == nil {
            let size = EntityModel.keyBatchSize
            let start = index / size * size
            groupFaults(in: start..<min(start + size, results.tree.count), of: results)
        }
        return unsafeDowncast(object, to: Result.self)
    }

    /// The object at `indexPath`.
    public func object(at indexPath: FetchedIndexPath) -> Result {
        object(at: index(of: indexPath))
    }

    /// The position of the object with `objectID` in the results, or nil. O(log n).
    public func index(of objectID: ManagedObjectID) -> Int? {
        let results = fetched()
        guard results.plan.contains(objectID), let slot = results.table.slot(forKey: objectID.key) else { return nil }
        return results.table.withOrder(against: slot) { results.tree.index(where: $0) }
    }

    /// The section and position within it of the object with `objectID`, or nil. O(log n).
    public func indexPath(forObjectWith objectID: ManagedObjectID) -> FetchedIndexPath? {
        index(of: objectID).map { indexPath(at: $0, in: fetched()) }
    }

    /// The section and position within it of `object`, or nil when it is not in the results.
    public func indexPath(for object: Result) -> FetchedIndexPath? {
        indexPath(forObjectWith: object.objectID)
    }

    /// Makes the objects at `range` faults that load together, in one query (and the request's
    /// `relationshipKeyPathsForPrefetching` with them), when one of them is read, and keeps them
    /// until the next prefetch. Reads nothing from the store itself, so a list
    /// can call it for the rows it is about to show.
    public func prefetch(_ range: Range<Int>) {
        let results = fetched()
        let range = range.clamped(to: 0..<results.tree.count)
        prefetched = groupFaults(in: range, of: results)
    }

    /// Makes the objects at `range` and groups those that are faults into one fault group; returns
    /// them all.
    @discardableResult
    private func groupFaults(in range: Range<Int>, of results: Results) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(range.count)
        var faults: [Int64] = []
        results.forEachSlot(in: range) { slot in
            let object = context.object(forKey: results.table.key(of: slot), of: results.plan.entity)
            objects.append(object)
            if object.flags.contains(.fault) && object.faultGroup == nil && object.key > 0 { faults.append(object.key) }
        }
        if !faults.isEmpty {
            // The request's prefetched relationships load with the group: a list row that shows
            // an article's tags then reads no row of its own.
            let prefetch = fetchRequest.relationshipKeyPathsForPrefetching.map { $0.split(separator: ".").map(String.init) }
            let group = FaultGroup(entity: results.plan.entity, keys: faults, prefetch: prefetch)
            for object in objects where object.flags.contains(.fault) && object.faultGroup == nil && object.key > 0 {
                object.faultGroup = group
            }
        }
        return objects
    }

    /// The IDs of the objects at `range`, in order, without making objects.
    func objectIDs(in range: Range<Int>) -> [ManagedObjectID] {
        let results = fetched()
        var objectIDs: [ManagedObjectID] = []
        objectIDs.reserveCapacity(range.count)
        results.forEachSlot(in: range) { objectIDs.append(results.plan.objectID(forKey: results.table.key(of: $0))) }
        return objectIDs
    }

    /// The results, checking that they exist and that the caller is on the context's queue.
    @inline(__always)
    func fetched() -> Results {
        context.checkAccess()
        guard let results else { preconditionFailure("call performFetch() before reading a fetched-results controller") }
        return results
    }

    // MARK: Sections

    /// The sections: one per value of the section key path, in order, or one section of
    /// everything without a section key path; nil before ``performFetch()``.
    public var sections: FetchedResultsSections<Result>? {
        results == nil ? nil : FetchedResultsSections(controller: self)
    }

    /// The number of sections.
    var sectionCount: Int {
        let results = fetched()
        return results.plan.isSectioned ? results.tree.markCount : 1
    }

    /// Section `number`: its name, value and rows. O(log n).
    func section(at number: Int) -> FetchedResultsSection<Result> {
        let results = fetched()
        guard results.plan.isSectioned else {
            return FetchedResultsSection(controller: self, name: "", value: .null, range: 0..<results.tree.count)
        }
        let start = results.tree.indexOfMark(number)
        let end = number + 1 < results.tree.markCount ? results.tree.indexOfMark(number + 1) : results.tree.count
        let value = results.table.value(of: results.slot(at: start), column: 0)
        return FetchedResultsSection(controller: self, name: Self.sectionName(for: value), value: value, range: start..<end)
    }

    /// The position of `indexPath` in all the results.
    public func index(of indexPath: FetchedIndexPath) -> Int {
        let results = fetched()
        guard results.plan.isSectioned else { return indexPath.item }
        return results.tree.indexOfMark(indexPath.section) + indexPath.item
    }

    /// The index path of position `index`.
    func indexPath(at index: Int, in results: Results) -> FetchedIndexPath {
        guard results.plan.isSectioned else { return FetchedIndexPath(section: 0, item: index) }
        let section = results.tree.marks(before: index + 1) - 1
        return FetchedIndexPath(section: section, item: index - results.tree.indexOfMark(section))
    }

    /// The name of the section of objects whose section key has `value`: its text (ISO 8601 for a
    /// date, with fractions of a second), "" for nil.
    static func sectionName(for value: PrimitiveValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .date(let date): return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        case .data(let data): return data.base64EncodedString()
        default: return value.description
        }
    }
}
