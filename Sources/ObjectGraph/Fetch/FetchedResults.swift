/// The objects a fetch found, in order. A random-access collection; with a `fetchBatchSize` (or
/// `returnsObjectsAsFaults`) it holds only primary keys until elements are used, and then loads
/// the batch around the element touched in one query.
///
/// Like the objects in it, a result belongs to its context's queue.
public struct FetchedResults<Element: ManagedObject>: RandomAccessCollection {
    final class Storage {
        let context: ManagedObjectContext
        let entity: EntityModel
        /// Every object, when the fetch loaded them all (then `keys` and `objects` are unused).
        let loaded: [ManagedObject]?
        /// The primary key of each result (negative for unsaved inserted objects).
        let keys: [Int64]
        /// The object of each result, once it was asked for.
        var objects: [ManagedObject?]
        let batchSize: Int
        /// Whether touching an element loads its batch at once (false: the batch's objects are faults
        /// that load together when a property of one is read).
        let loadsBatches: Bool
        let prefetch: [[String]]

        /// Results held as keys, made into objects batch by batch.
        init(
            context: ManagedObjectContext, entity: EntityModel, keys: [Int64], objects: [ManagedObject?],
            batchSize: Int, loadsBatches: Bool, prefetch: [[String]]
        ) {
            self.context = context
            self.entity = entity
            loaded = nil
            self.keys = keys
            self.objects = objects
            self.batchSize = batchSize
            self.loadsBatches = loadsBatches
            self.prefetch = prefetch
        }

        /// Results already loaded.
        init(context: ManagedObjectContext, entity: EntityModel, objects: [ManagedObject]) {
            self.context = context
            self.entity = entity
            loaded = objects
            keys = []
            self.objects = []
            batchSize = 0
            loadsBatches = true
            prefetch = []
        }

        var count: Int { loaded?.count ?? keys.count }

        /// Registers the objects of the batch containing `position` as one fault group, and loads
        /// the group when asked to.
        func materialize(batchContaining position: Int) -> ManagedObject {
            context.checkAccess()
            let size = batchSize > 0 ? batchSize : EntityModel.keyBatchSize
            let start = position / size * size
            let end = Swift.min(start + size, keys.count)
            var faults: [ManagedObject] = []
            for index in start..<end where objects[index] == nil {
                let object = context.object(forKey: keys[index], of: entity)
                objects[index] = object
                if object.flags.contains(.fault) && object.faultGroup == nil { faults.append(object) }
            }
            if !faults.isEmpty {
                let group = FaultGroup(entity: entity, keys: faults.map(\.key), prefetch: prefetch)
                for object in faults { object.faultGroup = group }
            }
            let object = objects[position]!
            if loadsBatches && object.flags.contains(.fault) { context.fulfillFaultForAccess(of: object) }
            return object
        }
    }

    let storage: Storage

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }

    public subscript(position: Int) -> Element {
        if let loaded = storage.loaded { return unsafeDowncast(loaded[position], to: Element.self) }
        if let object = storage.objects[position] { return unsafeDowncast(object, to: Element.self) }
        return unsafeDowncast(storage.materialize(batchContaining: position), to: Element.self)
    }

    /// The IDs of the results, without loading any object.
    public var objectIDs: [ManagedObjectID] {
        if let loaded = storage.loaded { return loaded.map(\.objectID) }
        return storage.keys.indices.map { index in
            storage.objects[index]?.objectID ?? ManagedObjectID(entity: storage.entity, key: storage.keys[index])
        }
    }
}
