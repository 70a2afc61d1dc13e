import Foundation

/// A scratch pad of objects over the store: it registers one object per ID (the identity map),
/// tracks inserts, updates and deletes, fetches, and saves everything in one transaction.
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
public final class ManagedObjectContext: @unchecked Sendable {
    // Everything below `queue` is touched only on the context's queue (checked when checking is
    // on); that confinement is what makes the class Sendable.

    /// The store the context reads from and saves to.
    public let persistentStore: PersistentStore
    let model: SchemaModel
    let queue: ContextQueue
    /// Whether access is checked; copied from the container so the check costs one branch when off.
    let checksConcurrency: Bool
    private let violationHandler: @Sendable (ConcurrencyViolation) -> Void
    private let temporaryKeys: TemporaryKeySource
    private let label: String

    /// A name for diagnostics and for the transactions the context saves.
    public var name: String? {
        get { nameLock.withLock { _name } }
        set { nameLock.withLock { _name = newValue } }
    }
    private let nameLock = NSLock()
    private var _name: String?

    /// The author recorded with the context's saves (for persistent history). Set it on the
    /// context's queue, like everything but `name`.
    public var transactionAuthor: String? {
        didSet { checkAccess() }
    }

    /// When a fault cannot be fulfilled because its row was deleted elsewhere, a typed property read
    /// marks the object inaccessible and returns empty or default values (Core Data's behaviour).
    /// Set to false to stop the program instead. Throwing APIs (``ManagedObject/fireFault()``,
    /// `value(forKey:)`, ``existingObject(with:)``) always throw the error.
    public var shouldDeleteInaccessibleFaults = true {
        didSet { checkAccess() }
    }

    /// Registered objects with permanent IDs, one dictionary per entity, by primary key.
    var registered: [IdentityMap]
    /// Objects inserted since the last save (entries whose object was deleted again are skipped).
    var pendingInserts: [ManagedObject] = []
    /// Objects changed since the last save (an object is listed once, when it first changes).
    var pendingUpdates: [ManagedObject] = []
    /// Objects deleted since the last save.
    var pendingDeletes: [ManagedObject] = []
    /// Store failures met by typed property accessors, which cannot throw; `save()` throws the first
    /// so that a change that could not be applied is never silently lost.
    var deferredFailures: [any Error] = []
    /// The number of registered objects at which the next public fetch or lookup first lets go of
    /// unreferenced ones.
    private var releaseThreshold = ManagedObjectContext.minimumReleaseThreshold
    private static let minimumReleaseThreshold = 50_000
    private var nextTemporaryKey: Int64 = 0
    private var lastTemporaryKey: Int64 = 0

    init(
        store: PersistentStore, queue: ContextQueue, concurrency: ConcurrencyChecking,
        temporaryKeys: TemporaryKeySource, label: String
    ) {
        persistentStore = store
        model = store.model
        self.queue = queue
        checksConcurrency = concurrency.isEnabled
        violationHandler = concurrency.violationHandler
        self.temporaryKeys = temporaryKeys
        self.label = label
        registered = Array(repeating: IdentityMap(), count: store.model.entities.count)
    }

    deinit {
        // Objects outlive their context only as detached objects; clear their unowned reference,
        // and their relationship states, which hold related objects strongly and in cycles (an
        // article and its folder) that would otherwise keep every related object alive for good.
        for objects in registered { for object in objects.values { object.detach() } }
        for object in pendingInserts { object.detach() }
    }

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
        var objects = Set<ManagedObject>()
        for map in registered { objects.formUnion(map.values) }
        for object in pendingInserts where object.flags.contains(.inserted) { objects.insert(object) }
        return objects
    }

    /// The registered object with this ID, or nil; never touches the store.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        checkAccess()
        guard let entity = localEntity(of: objectID) else { return nil }
        if objectID.isTemporaryID {
            return pendingInserts.first { $0.key == objectID.key && $0.entityModel === entity && $0.flags.contains(.inserted) }
        }
        return registered[entity.number][objectID.key]
    }

    /// The object with this ID: the registered one, or a fault for the row (checked only when a
    /// property is read). Throws for IDs of another store and unknown temporary IDs.
    public func object(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkAccess()
        releaseUnreferencedObjectsIfNeeded()
        guard let entity = localEntity(of: objectID) else { throw ObjectGraphError.wrongStore(objectID) }
        if objectID.isTemporaryID {
            guard let object = registeredObject(for: objectID) else {
                throw ObjectGraphError.temporaryIDNotResolvable(objectID)
            }
            return object
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
        if let object = registered[entity.number][key] { return object }
        let object = entity.objectClass.init(ObjectInitialization(fault: entity, key: key))
        object.context = self
        registered[entity.number][key] = object
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

    /// Records that `object` is about to change: captures its committed values once and lists it as
    /// updated. Inserted objects need neither.
    func objectWillChange(_ object: ManagedObject) {
        if object.flags.contains(.inserted) { return }
        if object.flags.contains(.fault) { fulfillFaultForAccess(of: object) }
        if object.committedValues == nil { object.committedValues = object.values }
        if !object.flags.contains(.updated) {
            object.flags.insert(.updated)
            pendingUpdates.append(object)
        }
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
    /// deleted ones get their saved values back.
    public func rollback() {
        checkAccess()
        for object in pendingInserts where object.flags.contains(.inserted) {
            if object.key > 0 { registered[object.entityModel.number][object.key] = nil }
            object.flags.remove([.inserted, .deleted, .listedAsDeleted, .updated])
            object.relations = nil
            object.context = nil
        }
        for object in pendingUpdates + pendingDeletes where object.context === self {
            discardChanges(of: object)
            object.flags.remove([.deleted, .listedAsDeleted])
        }
        pendingInserts = []
        pendingUpdates = []
        pendingDeletes = []
        deferredFailures = []
    }

    /// Lets go of every object: they become detached (attribute values that were loaded stay
    /// readable, relationships do not) and pending changes are dropped. Fetch again afterwards.
    public func reset() {
        checkAccess()
        for index in registered.indices {
            for object in registered[index].values { object.detach() }
            registered[index] = IdentityMap()
        }
        for object in pendingInserts { object.detach() }
        pendingInserts = []
        pendingUpdates = []
        pendingDeletes = []
        deferredFailures = []
    }

    /// Updates an object from the store.
    ///
    /// With `mergeChanges: false` the object's unsaved changes (but not a pending delete) are
    /// discarded and it turns back into a fault, releasing its values and related objects. With
    /// `mergeChanges: true` it reads the row now and keeps its own changed values on top of it, so a
    /// later save does not conflict with what it has now seen. Inserted objects are left alone.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        checkAccess()
        guard object.context === self, !object.flags.contains(.inserted) else { return }
        guard mergeChanges else {
            discardChanges(of: object)
            object.values = []
            object.relations = nil
            object.faultGroup = nil
            object.flags.insert(.fault)
            object.flags.remove(.inaccessible)
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
    /// keys in the store), so the IDs can be handed to other contexts or stored.
    public func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        checkAccess()
        let pending = objects.filter { $0.context === self && $0.flags.contains(.inserted) && $0.key < 0 }
        guard !pending.isEmpty else { return }
        let groups = Dictionary(grouping: pending) { $0.entityModel.number }
        let firstKeys = try persistentStore.write { connection in
            try groups.mapValues { objects in
                try persistentStore.reserveKeys(connection, entity: objects[0].entityModel, count: objects.count)
            }
        }
        for (number, objects) in groups {
            for (offset, object) in objects.enumerated() {
                object.key = firstKeys[number]! + Int64(offset)
                registered[number][object.key] = object
            }
        }
    }

    private func temporaryKey() -> Int64 {
        if nextTemporaryKey == lastTemporaryKey {
            (nextTemporaryKey, lastTemporaryKey) = temporaryKeys.reserve()
        }
        // Temporary keys are negative, so they never meet a primary key.
        nextTemporaryKey += 1
        return -nextTemporaryKey
    }
}

/// Hands out blocks of temporary keys, unique across the container's contexts, so that a temporary
/// ID never means two objects.
final class TemporaryKeySource: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var next: Int64 = 0
    private static let blockSize: Int64 = 4096

    /// A block of keys: the context uses `start + 1 ... end`.
    func reserve() -> (start: Int64, end: Int64) {
        lock.withLock {
            let start = next
            next += Self.blockSize
            return (start, next)
        }
    }
}
