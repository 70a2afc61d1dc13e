import Foundation
import Synchronization

/// A scratch pad of objects over the store (or over a parent context): it registers one object
/// per ID (the identity map), tracks inserts, updates and deletes, fetches, and saves everything
/// in one transaction.
///
/// Every context runs on a serial queue: the view context on the main thread, others on a private
/// queue. Use a context and its objects only there: on the main thread for the view context, and
/// inside ``perform(_:)`` or ``performAndWait(_:)`` for the others. Wrong-thread use is detected
/// when ``ConcurrencyChecking`` is on (debug builds and tests). The context itself is `Sendable`;
/// its objects are not: pass ``ManagedObjectID``s between contexts.
///
///     let context = container.newBackgroundContext()
///     try await context.perform {
///         let article = Article(context: context)
///         article.title = "Imported"
///         try context.save()
///     }
///
/// A child context (``newChildContext(concurrency:)``) reads through its parent, sees the
/// parent's unsaved changes, and saves into the parent instead of the store: the editor's draft.
public final class ManagedObjectContext: @unchecked Sendable {
    // Everything below `queue` is touched only on the context's queue (checked when checking is
    // on); that confinement is what makes the class Sendable.

    /// The store the context's chain of parents reads from and saves to.
    public let persistentStore: PersistentStore
    /// The context this one reads through and saves into; nil when it works on the store directly.
    public let parent: ManagedObjectContext?
    let model: SchemaModel
    let queue: ContextQueue
    /// Whether access is checked; copied from the container so the check costs one branch when off.
    let checksConcurrency: Bool
    let violationHandler: @Sendable (ConcurrencyViolation) -> Void
    let temporaryKeys: TemporaryKeySource
    private let label: String
    /// The callbacks and streams observing the context.
    let observers = ContextObservers()
    /// Child contexts that merge this context's saves and merges automatically.
    let mergingChildren = ContextList()

    /// A name for diagnostics and for the transactions the context saves.
    public var name: String? {
        get { storedName.withLock { $0 } }
        set { storedName.withLock { $0 = newValue } }
    }
    /// The name may be read and set on any thread (unlike everything else here).
    private let storedName = Mutex<String?>(nil)

    /// The author recorded with the context's saves (for persistent history). Set it on the
    /// context's queue, like everything but `name`.
    public var transactionAuthor: String? {
        didSet { checkAccess() }
    }

    /// How a save resolves conflicts with changes made elsewhere since the context read its objects
    /// (and unique-constraint conflicts of inserted objects). `.error` by default: the save fails
    /// with ``ObjectGraphError/mergeConflicts(_:)`` and nothing is written. For a child context,
    /// "elsewhere" is its parent.
    public var mergePolicy: MergePolicy = .error {
        didSet { checkAccess() }
    }

    /// Whether the context merges, as they happen, the saves of other contexts: for a context on
    /// the store, every other context's save to the store and (with persistent history) other
    /// processes' transactions; for a child, its parent's saves and merges and its siblings' saves
    /// into the parent. Merges arrive on the context's queue and post `objectsDidChange`.
    ///
    /// Objects the context has changed are never overwritten by a merge: they keep their values
    /// and snapshot, so their next save meets the change as a conflict for ``mergePolicy``.
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergesAutomatically.withLock { $0 } }
        set {
            let changed = mergesAutomatically.withLock { value in
                defer { value = newValue }
                return value != newValue
            }
            guard changed else { return }
            if let parent {
                if newValue { parent.mergingChildren.add(self) } else { parent.mergingChildren.remove(self) }
            } else {
                if newValue { persistentStore.mergingContexts.add(self) } else { persistentStore.mergingContexts.remove(self) }
                if newValue { persistentStore.startWatchingForRemoteChanges() }
            }
        }
    }
    private let mergesAutomatically = Mutex(false)

    /// When a fault cannot be fulfilled because its row was deleted elsewhere, a typed property read
    /// marks the object inaccessible and returns empty or default values (Core Data's behaviour).
    /// Set to false to stop the program instead. Throwing APIs (``ManagedObject/fireFault()``,
    /// `value(forKey:)`, ``existingObject(with:)``) always throw the error.
    public var shouldDeleteInaccessibleFaults = true {
        didSet { checkAccess() }
    }

    /// Registered objects with permanent IDs, one dictionary per entity, by primary key.
    var registered: [IdentityMap]
    /// Registered objects with temporary IDs that an ancestor context holds unsaved (saved into the
    /// parent, or inserted there), by temporary key. Temporary keys are unique in the container.
    var ancestorObjects: [Int64: ManagedObject] = [:]
    /// Objects inserted since the last save (entries whose object was deleted again are skipped).
    var pendingInserts: [ManagedObject] = []
    /// Pending inserts by temporary key, for the first `indexedInserts` of them.
    private var insertsByKey: [Int64: ManagedObject] = [:]
    private var indexedInserts = 0
    /// Objects changed since the last save (an object is listed once, when it first changes).
    var pendingUpdates: [ManagedObject] = []
    /// Objects deleted since the last save.
    var pendingDeletes: [ManagedObject] = []
    /// Changed objects whose rows a merge found changed or deleted elsewhere: their committed
    /// values are out of date, so `rollback()` turns them into faults instead of restoring them.
    var mergedOverChanges: [ManagedObject] = []
    /// Store failures met by typed property accessors, which cannot throw; `save()` throws the first
    /// so that a change that could not be applied is never silently lost.
    var deferredFailures: [any Error] = []
    /// History consumer tokens the next save writes in its transaction.
    var pendingConsumerTokens: [String: HistoryToken] = [:]

    // Change notification bookkeeping (see `processPendingChanges()`).
    /// Objects changed since the last `objectsDidChange` (flagged `.unannounced`).
    var unannounced: [ManagedObject] = []
    /// How many of `pendingInserts` and `pendingDeletes` were announced already.
    var announcedInserts = 0
    var announcedDeletes = 0
    /// Refreshes and new permanent IDs waiting for the next `objectsDidChange`.
    var unannouncedRefreshes: [UpdatedObject] = []
    var unannouncedPermanentIDs: [ManagedObjectID: ManagedObjectID] = [:]
    var changeNotificationScheduled = false
    /// How far the context has taken over permanent keys its ancestors' saves gave temporary ones.
    var adoptedGeneration = 0

    /// The number of registered objects at which the next public fetch or lookup first lets go of
    /// unreferenced ones.
    private var releaseThreshold = ManagedObjectContext.minimumReleaseThreshold
    private static let minimumReleaseThreshold = 50_000
    private var nextTemporaryKey: Int64 = 0
    private var lastTemporaryKey: Int64 = 0

    init(
        store: PersistentStore, parent: ManagedObjectContext? = nil, queue: ContextQueue,
        checksConcurrency: Bool, violationHandler: @escaping @Sendable (ConcurrencyViolation) -> Void,
        temporaryKeys: TemporaryKeySource, label: String
    ) {
        persistentStore = store
        self.parent = parent
        model = store.model
        self.queue = queue
        self.checksConcurrency = checksConcurrency
        self.violationHandler = violationHandler
        self.temporaryKeys = temporaryKeys
        self.label = label
        registered = Array(repeating: IdentityMap(), count: store.model.entities.count)
        adoptedGeneration = temporaryKeys.generation
    }

    convenience init(
        store: PersistentStore, queue: ContextQueue, concurrency: ConcurrencyChecking,
        temporaryKeys: TemporaryKeySource, label: String
    ) {
        self.init(
            store: store, queue: queue, checksConcurrency: concurrency.isEnabled,
            violationHandler: concurrency.violationHandler, temporaryKeys: temporaryKeys, label: label)
    }

    deinit {
        // Objects outlive their context only as detached objects; clear their unowned reference,
        // and their relationship states, which hold related objects strongly and in cycles (an
        // article and its folder) that would otherwise keep every related object alive for good.
        for objects in registered { for object in objects.values { object.detach() } }
        for object in ancestorObjects.values { object.detach() }
        for object in pendingInserts { object.detach() }
    }

    /// How a new context runs.
    public enum Concurrency: Sendable {
        /// On the main queue, like the view context.
        case mainQueue
        /// On a private serial queue of its own.
        case privateQueue
    }

    /// A new context whose parent is this one: it fetches through this context (seeing its unsaved
    /// changes), and its `save()` pushes its changes into this context only; this context's own
    /// save then writes them. Temporary IDs become permanent when the chain's save reaches the
    /// store, in every context of the chain.
    ///
    ///     let draft = viewContext.newChildContext()        // on the main queue, like its parent
    ///     let article = try draft.existingObject(with: id, as: Article.self)
    ///     article.body = editedText
    ///     try draft.save()                                  // into the view context
    ///     try viewContext.save()                            // into the store
    ///
    /// A child runs on its parent's kind of queue unless told otherwise. A child on another queue
    /// than its parent waits for the parent's queue whenever it reads or saves, so never make the
    /// parent's queue wait for such a child.
    public func newChildContext(concurrency: Concurrency? = nil) -> ManagedObjectContext {
        let kind = concurrency ?? (queue.isMain ? .mainQueue : .privateQueue)
        let childQueue: ContextQueue
        switch kind {
        case .mainQueue: childQueue = ContextQueue(kind: .main)
        case .privateQueue: childQueue = ContextQueue(kind: .privateQueue(DispatchQueue(label: "objectgraph.context.child")))
        }
        var ancestor: ManagedObjectContext? = self
        while let context = ancestor {
            context.hasDescendants.withLock { $0 = true }
            ancestor = context.parent
        }
        return ManagedObjectContext(
            store: persistentStore, parent: self, queue: childQueue, checksConcurrency: checksConcurrency,
            violationHandler: violationHandler, temporaryKeys: temporaryKeys, label: "child of \(name ?? label)")
    }

    /// Whether a child context was ever made of this context or of one of its children: then its
    /// saves to the store remember which permanent key each temporary key became.
    let hasDescendants = Mutex(false)

    // MARK: Running on the context's queue

    /// Whether this is the main-queue (view) context.
    public var isMainQueueContext: Bool { queue.isMain }

    /// Runs `body` on the context's queue and returns its result. The closure may use the context
    /// and the objects it fetches there; only `Sendable` results (IDs, values) come back.
    public func perform<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
    }

    /// Runs `body` on the context's queue and waits for it; runs it at once when already there.
    public func performAndWait<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        let result: Result<T, Failure> = queue.sync { Result(catching: body) }
        return try result.get()
    }

    /// Reports use of the context from a thread that is not running its queue.
    @inline(__always)
    func checkAccess() {
        if checksConcurrency && !queue.isCurrent() { reportViolation() }
    }

    private func reportViolation() {
        violationHandler(ConcurrencyViolation(
            context: name ?? label, isMainQueueContext: queue.isMain, thread: Thread.current.description))
    }

    // MARK: Registered objects

    /// Every object registered in the context.
    public var registeredObjects: Set<ManagedObject> {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        var objects = Set<ManagedObject>()
        for map in registered { objects.formUnion(map.values) }
        objects.formUnion(ancestorObjects.values)
        for object in pendingInserts where object.flags.contains(.inserted) { objects.insert(object) }
        return objects
    }

    /// The registered object with this ID, or nil; never touches the store.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        guard let entity = localEntity(of: objectID) else { return nil }
        return registeredObject(forKey: objectID.key, of: entity)
    }

    /// The object with this ID: the registered one, or a fault for the row (checked only when a
    /// property is read). Throws for IDs of another store and unknown temporary IDs; a child
    /// context also knows the temporary IDs of objects its ancestors hold unsaved.
    public func object(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        releaseUnreferencedObjectsIfNeeded()
        guard let entity = localEntity(of: objectID) else { throw ObjectGraphError.wrongStore(objectID) }
        if objectID.isTemporaryID {
            if let object = registeredObject(forKey: objectID.key, of: entity) { return object }
            if let permanent = temporaryKeys.permanentKey(for: objectID.key) { return object(forKey: permanent, of: entity) }
            guard let parent, try parent.performAndWait({ try parent.holdsObject(forKey: objectID.key, of: entity) }) else {
                throw ObjectGraphError.temporaryIDNotResolvable(objectID)
            }
            return object(forKey: objectID.key, of: entity)
        }
        return object(forKey: objectID.key, of: entity)
    }

    /// The object with this ID, loaded: throws ``ObjectGraphError/objectNotFound(_:)`` when its row
    /// does not exist.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        let object = try object(with: objectID)
        try fulfillFault(of: object)
        return object
    }

    /// ``existingObject(with:)`` cast to the entity's class.
    public func existingObject<T: ManagedObject>(with objectID: ManagedObjectID, as type: T.Type) throws -> T {
        let object = try existingObject(with: objectID)
        guard let typed = object as? T else {
            throw ObjectGraphError.wrongValueType(
                entity: objectID.entityName, key: "objectID", expected: "\(T.self)", actual: "\(Swift.type(of: object))")
        }
        return typed
    }

    /// This store's model of the ID's entity: the ID's own, or, for an ID made by another
    /// container on the same store file, the entity of the same name. Nil for other stores.
    func localEntity(of objectID: ManagedObjectID) -> EntityModel? {
        let entity = objectID.entity
        if entity.number >= 0 && entity.number < model.entities.count && model.entities[entity.number] === entity {
            return entity
        }
        guard entity.storeIdentifier == persistentStore.metadata.storeIdentifier else { return nil }
        return model.entity(named: entity.name)
    }

    /// The registered object for a row, or a new fault registered for it.
    @inline(__always)
    func object(forKey key: Int64, of entity: EntityModel) -> ManagedObject {
        if key < 0 { return temporaryObject(forKey: key, of: entity) }
        if let object = registered[entity.number][key] { return object }
        let object = entity.objectClass.init(ObjectInitialization(fault: entity, key: key))
        object.context = self
        registered[entity.number][key] = object
        return object
    }

    /// The object registered for a key (temporary keys included), without making one.
    func registeredObject(forKey key: Int64, of entity: EntityModel) -> ManagedObject? {
        if key > 0 { return registered[entity.number][key] }
        if let object = ancestorObjects[key] ?? pendingInsert(forKey: key), object.entityModel === entity { return object }
        return nil
    }

    /// The object for a temporary key met while reading through the parent: an object an ancestor
    /// holds unsaved, registered here as a fault that loads through the parent.
    private func temporaryObject(forKey key: Int64, of entity: EntityModel) -> ManagedObject {
        if let object = registeredObject(forKey: key, of: entity) { return object }
        if let permanent = temporaryKeys.permanentKey(for: key) { return object(forKey: permanent, of: entity) }
        let object = entity.objectClass.init(ObjectInitialization(fault: entity, key: key))
        object.context = self
        ancestorObjects[key] = object
        return object
    }

    /// The pending inserted object with a temporary key. Looked up through an index built on
    /// demand, so that inserting many objects costs nothing extra.
    private func pendingInsert(forKey key: Int64) -> ManagedObject? {
        while indexedInserts < pendingInserts.count {
            let object = pendingInserts[indexedInserts]
            insertsByKey[object.key] = object
            indexedInserts += 1
        }
        guard let object = insertsByKey[key], object.key == key, object.flags.contains(.inserted) else { return nil }
        return object
    }

    /// Lets go of registered objects that nothing references any more (no caller, no related
    /// object, no pending change), so a long-lived context does not keep every row it ever read.
    /// Fetches and ID lookups do this by themselves once the context holds many objects; call it
    /// after dropping a large result to return the memory at once. An object released this way is
    /// simply made again, as a fault, when next asked for.
    public func releaseUnreferencedObjects() {
        checkAccess()
        var remaining = 0
        for index in registered.indices {
            registered[index].removeUnreferenced()
            remaining += registered[index].count
        }
        releaseThreshold = max(Self.minimumReleaseThreshold, remaining * 2)
    }

    /// Releases unreferenced objects when the identity map has grown past the threshold; called at
    /// public entry points only, never while internal code holds objects it has not stored yet.
    func releaseUnreferencedObjectsIfNeeded() {
        var total = 0
        for map in registered { total += map.count }
        if total >= releaseThreshold { releaseUnreferencedObjects() }
    }

    // MARK: Inserting and deleting

    /// Inserts a new object of the named entity (for entities without a class of their own).
    @discardableResult
    public func insertObject(entityName: String) throws -> ManagedObject {
        checkAccess()
        guard let entity = model.entity(named: entityName) else { throw ObjectGraphError.unknownEntity(entityName) }
        let object = entity.objectClass.init(ObjectInitialization(inserting: entity))
        insert(object)
        return object
    }

    /// Registers a new object as inserted, with a temporary ID.
    func insert(_ object: ManagedObject) {
        checkAccess()
        precondition(object.context == nil && object.key == 0, "an object is inserted once, into one context")
        object.context = self
        object.key = temporaryKey()
        object.flags.insert(.inserted)
        pendingInserts.append(object)
        scheduleChangeNotification()
        object.awakeFromInsert()
    }

    /// Marks an object deleted. The delete rules of its relationships are applied by `save()`,
    /// which also removes it from the store; `rollback()` undoes the delete.
    public func delete(_ object: ManagedObject) {
        checkAccess()
        guard object.context === self else {
            preconditionFailure("\(object.objectID) belongs to another context or none")
        }
        guard !object.flags.contains(.deleted) else { return }
        object.flags.insert([.deleted, .listedAsDeleted])
        pendingDeletes.append(object)
        scheduleChangeNotification()
    }

    // MARK: Pending changes

    /// Whether anything was inserted, changed or deleted since the last save.
    public var hasChanges: Bool {
        checkAccess()
        return pendingInserts.contains { $0.flags.contains(.inserted) }
            || pendingUpdates.contains { $0.flags.contains(.updated) }
            || pendingDeletes.contains { $0.flags.contains(.listedAsDeleted) }
    }

    /// Objects inserted since the last save (and not deleted again).
    public var insertedObjects: Set<ManagedObject> {
        checkAccess()
        return Set(liveInserts)
    }

    /// Objects changed since the last save, other than inserted and deleted ones.
    public var updatedObjects: Set<ManagedObject> {
        checkAccess()
        return Set(pendingUpdates.filter(\.isUpdated))
    }

    /// Objects deleted since the last save (inserted objects deleted again are not listed).
    public var deletedObjects: Set<ManagedObject> {
        checkAccess()
        return Set(pendingDeletes.filter { $0.flags.contains(.listedAsDeleted) && !$0.flags.contains(.inserted) })
    }

    /// Inserted objects that are still to be inserted.
    var liveInserts: [ManagedObject] {
        pendingInserts.filter { $0.flags.contains(.inserted) && !$0.flags.contains(.deleted) }
    }

    /// Forgets the pending changes (after a save, rollback or reset).
    func clearPendingChanges() {
        pendingInserts = []
        pendingUpdates = []
        pendingDeletes = []
        mergedOverChanges = []
        insertsByKey = [:]
        indexedInserts = 0
        announcedInserts = 0
        announcedDeletes = 0
    }

    /// Records that `object` is about to change: captures its committed values once, lists it as
    /// updated, and notes it for the next `objectsDidChange`. Inserted objects need only the last,
    /// and only once their insert was announced.
    func objectWillChange(_ object: ManagedObject) {
        if object.flags.contains(.inserted) {
            if object.flags.contains(.announced) { noteUnannounced(object) }
            return
        }
        if object.flags.contains(.fault) { fulfillFaultForAccess(of: object) }
        if object.committedValues == nil { object.committedValues = object.values }
        if !object.flags.contains(.updated) {
            object.flags.insert(.updated)
            pendingUpdates.append(object)
        }
        noteUnannounced(object)
    }

    @inline(__always)
    private func noteUnannounced(_ object: ManagedObject) {
        guard !object.flags.contains(.unannounced) else { return }
        object.flags.insert(.unannounced)
        unannounced.append(object)
        scheduleChangeNotification()
    }

    /// Handles a failure of a typed relationship setter: misuse stops the program (as a wrong cast
    /// would), a store failure is kept for the next save.
    func handleFailedChange(_ error: any Error, of object: ManagedObject, key: String) {
        if let misuse = error as? ObjectGraphError {
            preconditionFailure("cannot change \(object.entityModel.name).\(key): \(misuse)")
        }
        deferredFailures.append(error)
    }

    /// Handles a store failure while a typed accessor loaded a relationship.
    func handleFailedRead(_ error: any Error, of object: ManagedObject) {
        object.companion = .failure(error)
        deferredFailures.append(error)
    }

    // MARK: Undoing and refreshing

    /// Discards every change since the last save: inserted objects leave the context, changed and
    /// deleted ones get their saved values back (those whose rows a merge found changed meanwhile
    /// become faults, which load the rows as they are now). Observers hear of it in one
    /// `objectsDidChange`.
    public func rollback() {
        checkAccess()
        processPendingChanges()
        var change = ObjectsDidChange()
        for object in pendingInserts where object.flags.contains(.inserted) {
            if object.flags.contains(.announced) && !object.flags.contains(.deleted) {
                change.deleted.append(object.objectID)
            }
            if object.key > 0 { registered[object.entityModel.number][object.key] = nil }
            object.flags.remove([.inserted, .deleted, .listedAsDeleted, .updated])
            object.relations = nil
            object.context = nil
        }
        let outOfDate = Set(mergedOverChanges.map(ObjectIdentifier.init))
        for object in pendingUpdates + pendingDeletes where object.context === self {
            let wasDeleted = object.flags.contains(.listedAsDeleted)
            let changed = object.changedProperties
            discardChanges(of: object)
            object.flags.remove([.deleted, .listedAsDeleted])
            if outOfDate.contains(ObjectIdentifier(object)) {
                // Its committed values predate a merged change: load the row again when used.
                turnIntoFault(object)
                if wasDeleted {
                    change.inserted.append(object.objectID)
                } else {
                    change.refreshed.append(UpdatedObject(objectID: object.objectID, changedKeys: .all(of: object.entityModel)))
                }
            } else if wasDeleted {
                change.inserted.append(object.objectID)
            } else if !changed.isEmpty {
                change.refreshed.append(UpdatedObject(objectID: object.objectID, changedKeys: ChangedKeys(entity: object.entityModel, mask: changed)))
            }
        }
        clearPendingChanges()
        deferredFailures = []
        post(change)
    }

    /// Lets go of every object: they become detached (attribute values that were loaded stay
    /// readable, relationships do not) and pending changes are dropped. Fetch again afterwards;
    /// observers get `invalidatedAll`.
    public func reset() {
        checkAccess()
        processPendingChanges()
        for index in registered.indices {
            for object in registered[index].values { object.detach() }
            registered[index] = IdentityMap()
        }
        for object in ancestorObjects.values { object.detach() }
        ancestorObjects = [:]
        for object in pendingInserts { object.detach() }
        clearPendingChanges()
        deferredFailures = []
        var change = ObjectsDidChange()
        change.invalidatedAll = true
        post(change)
    }

    /// Updates an object from the store (for a child context, from its parent).
    ///
    /// With `mergeChanges: false` the object's unsaved changes (but not a pending delete) are
    /// discarded and it turns back into a fault, releasing its values and related objects. With
    /// `mergeChanges: true` it reads the row now and keeps its own changed values on top of it, so a
    /// later save does not conflict with what it has now seen. Inserted objects are left alone.
    /// Observers see the object as refreshed in the next `objectsDidChange`.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        checkAccess()
        guard object.context === self, !object.flags.contains(.inserted) else { return }
        defer {
            unannouncedRefreshes.append(UpdatedObject(objectID: object.objectID, changedKeys: .all(of: object.entityModel)))
            scheduleChangeNotification()
        }
        guard mergeChanges else {
            turnIntoFault(object)
            return
        }
        if object.flags.contains(.fault) { return }
        guard let row = try readRow(of: object.entityModel, key: object.key) else {
            throw ObjectGraphError.objectNotFound(object.objectID)
        }
        let changed = object.changedProperties
        let attributeCount = object.entityModel.attributes.count
        var merged = row.values
        for (slot, attribute) in object.entityModel.attributes.enumerated()
        where changed.contains(slot) || attribute.isTransient {
            merged[slot] = object.values[slot]
        }
        if object.committedValues != nil { object.committedValues = row.values }
        if object.relations != nil {
            // Unchanged relationships reload from the row; changed ones keep their state, which is
            // what the save writes.
            for relationship in object.entityModel.relationships where !changed.contains(attributeCount + relationship.index) {
                object.relations![relationship.index] = .fault
            }
        }
        object.values = merged
        object.rowVersion = row.version
    }

    /// Drops an object's unsaved changes (but not a pending delete) and its values: it loads again
    /// when next used.
    func turnIntoFault(_ object: ManagedObject) {
        discardChanges(of: object)
        object.values = []
        object.relations = nil
        object.faultGroup = nil
        object.flags.insert(.fault)
        object.flags.remove(.inaccessible)
    }

    /// Puts an object's committed values back and forgets its changes.
    private func discardChanges(of object: ManagedObject) {
        if let committed = object.committedValues { object.values = committed }
        object.committedValues = nil
        if !object.changedProperties.isEmpty { object.relations = nil }
        object.changedProperties.removeAll()
        object.flags.remove(.updated)
    }

    // MARK: IDs

    /// Gives inserted objects permanent IDs now, before they are saved (reserving their primary
    /// keys in the store), so the IDs can be handed to other contexts or stored. Observers that
    /// heard of an object's insert get its new ID in the next `objectsDidChange` (`permanentIDs`).
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkAccess()
        let pending = objects.filter { $0.context === self && $0.flags.contains(.inserted) && $0.key < 0 }
        guard !pending.isEmpty else { return }
        let groups = Dictionary(grouping: pending) { $0.entityModel.number }
        let firstKeys = try persistentStore.write { connection, _ in
            try groups.mapValues { objects in
                try persistentStore.reserveKeys(connection, entity: objects[0].entityModel, count: objects.count)
            }
        }
        var assigned: [(temporary: Int64, permanent: Int64)] = []
        for (number, objects) in groups {
            for (offset, object) in objects.enumerated() {
                let permanent = firstKeys[number]! + Int64(offset)
                assigned.append((object.key, permanent))
                if object.flags.contains(.announced) {
                    // Observers know the object by its temporary ID (an unannounced insert is
                    // announced with its new one).
                    unannouncedPermanentIDs[object.objectID] = ManagedObjectID(entity: object.entityModel, key: permanent)
                }
                object.key = permanent
                registered[number][object.key] = object
            }
        }
        if hasDescendants.withLock({ $0 }) { temporaryKeys.record(assigned) }
        if !unannouncedPermanentIDs.isEmpty { scheduleChangeNotification() }
    }

    private func temporaryKey() -> Int64 {
        if nextTemporaryKey == lastTemporaryKey {
            (nextTemporaryKey, lastTemporaryKey) = temporaryKeys.reserve()
        }
        // Temporary keys are negative, so they never meet a primary key.
        nextTemporaryKey += 1
        return -nextTemporaryKey
    }

    /// Takes over the permanent keys that saves of ancestor contexts gave objects this context knows
    /// by a temporary key, so they answer to their permanent IDs here too. Cheap when nothing
    /// changed: one atomic read.
    func adoptPermanentIDsIfNeeded() {
        guard parent != nil else { return }
        let generation = temporaryKeys.generation
        guard generation != adoptedGeneration else { return }
        let mappings = temporaryKeys.mappings(from: adoptedGeneration, to: generation)
        adoptedGeneration = generation
        for (temporary, permanent) in mappings {
            guard let object = ancestorObjects.removeValue(forKey: temporary) else { continue }
            let entity = object.entityModel
            object.key = permanent
            if let fault = registered[entity.number][permanent], fault !== object { fault.context = nil }
            registered[entity.number][permanent] = object
            unannouncedPermanentIDs[ManagedObjectID(entity: entity, key: temporary)] = ManagedObjectID(entity: entity, key: permanent)
        }
        if !unannouncedPermanentIDs.isEmpty { scheduleChangeNotification() }
    }
}
