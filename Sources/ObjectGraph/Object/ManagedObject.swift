import Foundation

/// An object of the graph: one row of an entity, registered in one context.
///
/// Subclass it and declare typed properties with the property wrappers; the names must match the
/// entity's attribute and relationship names (checked when the container loads):
///
///     final class Article: ManagedObject {
///         @Attribute("id") var id: UUID
///         @Attribute("title") var title: String
///         @Attribute("subtitle") var subtitle: String?
///         @ToOne("folder") var folder: Folder?
///         @ToMany("tags") var tags: RelatedObjects<Tag>
///     }
///
///     let article = Article(context: context)   // inserted, with a temporary ID
///     article.title = "Drafts"
///     try context.save()                         // now its ID is permanent
///
/// An object belongs to its context's isolation: it is not `Sendable`; hand its ``objectID`` to
/// other contexts instead. Reading a property of a fault loads the row (see ``isFault``).
open class ManagedObject: Hashable, CustomStringConvertible {
    /// The compiled entity: column layout, indexes of attributes and relationships.
    final let entityModel: EntityModel
    /// The context the object is registered in; cleared when the context lets go of the object, so
    /// an unowned reference never outlives its context.
    unowned(unsafe) final var context: ManagedObjectContext?
    /// The row's primary key when positive, a temporary key when negative.
    final var key: Int64
    // The state every property access reads or writes is exempt from the runtime's exclusivity
    // check: that check records each access in a thread-local set (`swift_beginAccess`), and with
    // the reads of a value list's count (see `ValueStorage.count`) it was about a twentieth of the
    // processor samples of inserting and saving 100,000 objects, most in setting attributes. It only
    // catches overlapping accesses on one thread, and these have none: each access is a read or
    // an assignment in ObjectGraph's own code, and the longest, binding a row's values while its
    // insert or update runs, runs only SQLite meanwhile. (Use from another thread, which the check
    // never saw, is what the context's `checkAccess()` reports.)

    /// Attribute values (by attribute position), then owned foreign keys; empty while a fault.
    @exclusivity(unchecked) final var values: ValueList
    /// The values last read from or written to the store, captured before the first change.
    @exclusivity(unchecked) final var committedValues: ValueList?
    /// One state per relationship, created when a relationship is first used.
    final var relations: ContiguousArray<RelationshipState>?
    /// The row version the values were read at, checked when the object is saved (optimistic locking).
    final var rowVersion: Int64 = 0
    /// Attributes and relationships changed since the last save.
    @exclusivity(unchecked) final var changedProperties = PropertyMask()
    @exclusivity(unchecked) final var flags: ObjectFlags
    /// The fault group of a fault, the recorder of a placeholder, or why a read failed (one field
    /// for all, since no object needs two of them at once).
    final var companion: Companion?

    /// What an object may carry besides its values.
    enum Companion {
        /// The rows fetched together with this fault, loaded together when one of them fires.
        case faultGroup(FaultGroup)
        /// Set only on placeholder objects used to turn key paths into names.
        case probe(KeyPathProbe)
        /// Why loading the object or one of its relationships failed (see ``faultError``).
        case failure(any Error)
    }

    /// The fault group, while the object is a fault fetched with others.
    final var faultGroup: FaultGroup? {
        get {
            if case .faultGroup(let group)? = companion { return group }
            return nil
        }
        set { companion = newValue.map(Companion.faultGroup) }
    }

    /// The recorder, on placeholder objects.
    final var probe: KeyPathProbe? {
        if case .probe(let probe)? = companion { return probe }
        return nil
    }

    /// Creates an object for ObjectGraph; only the framework can make an ``ObjectInitialization``.
    /// A subclass that declares its own designated initializer must also provide this one.
    public required init(_ initialization: ObjectInitialization) {
        entityModel = initialization.entity
        key = initialization.key
        companion = initialization.probe.map(Companion.probe)
        flags = initialization.flags
        values = initialization.values
        rowVersion = initialization.rowVersion
    }

    /// Creates an object of this class's entity and inserts it into `context`, with a temporary ID,
    /// default values, and ``awakeFromInsert()`` called.
    ///
    /// The class must be the object class of an entity in the context's schema.
    public convenience init(context: ManagedObjectContext) {
        guard let entity = context.model.entity(for: Self.self) else {
            preconditionFailure("\(Self.self) is not the class of any entity in the schema")
        }
        self.init(ObjectInitialization(inserting: entity))
        context.insert(self)
    }

    // MARK: Identity

    /// The object's ID: temporary until it is saved or `obtainPermanentIDs(for:)` runs. In a child
    /// context, an object saved into the parent answers to its permanent ID once the chain's save
    /// reaches the store.
    public final var objectID: ManagedObjectID {
        if key < 0, let context, context.parent != nil { context.adoptPermanentIDsIfNeeded() }
        return ManagedObjectID(entity: entityModel, key: key)
    }

    /// The context the object is registered in; nil once the object was deleted and saved, or its
    /// context was reset or released.
    public final var managedObjectContext: ManagedObjectContext? { context }

    /// The entity of the object.
    public final var entity: EntityDescription { entityModel.description }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    public final func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    open var description: String {
        var text = "<\(entityModel.name) \(objectID.uriRepresentation.absoluteString)"
        if isFault {
            text += " fault"
        } else {
            for (index, attribute) in entityModel.attributes.enumerated() where index < values.count {
                text += " \(attribute.name)=\(values[index])"
            }
        }
        return text + ">"
    }

    // MARK: State

    /// Whether the object's values have not been loaded yet. Reading any property fires the fault.
    public final var isFault: Bool { flags.contains(.fault) }

    /// Whether the object was inserted since the last save.
    public final var isInserted: Bool { flags.contains(.inserted) }

    /// Whether the object was changed since the last save (not counting inserts and deletes).
    public final var isUpdated: Bool { flags.contains(.updated) && !flags.contains(.inserted) && !flags.contains(.deleted) }

    /// Whether the object is deleted: pending in its context, or saved.
    public final var isDeleted: Bool { flags.contains(.deleted) }

    /// Whether the object's row could not be loaded because it was deleted from the store by someone
    /// else. Such an object reads its empty or default values; ``fireFault()`` throws the reason.
    public final var isInaccessible: Bool { flags.contains(.inaccessible) }

    /// Whether the object is inserted, deleted, or has changed values.
    public final var hasChanges: Bool {
        flags.contains(.inserted) || flags.contains(.deleted) || flags.contains(.updated)
    }

    /// Whether values that the store keeps differ from the last saved ones (ignoring transients and
    /// values set back to what they were).
    public final var hasPersistentChangedValues: Bool {
        guard let context else { return false }
        context.checkAccess()
        let changes = context.persistentChanges(of: self)
        return !changes.slots.isEmpty || changes.relationshipsChanged || flags.contains(.inserted)
    }

    // MARK: Faults

    /// Loads the object's values now, throwing if its row no longer exists in the store.
    public final func fireFault() throws {
        guard let context else {
            if flags.contains(.fault) { throw ObjectGraphError.objectDetached(objectID) }
            return
        }
        context.checkAccess()
        try context.fulfillFault(of: self)
    }

    // MARK: Hooks

    /// Called once when the object is inserted, after defaults are set; set computed initial values
    /// here (a fresh UUID, the creation date). Changes made here are part of the insert.
    open func awakeFromInsert() {}

    /// Checks the object before it is inserted by `save()`. Throw ``ValidationFailure`` (or any
    /// error) to refuse the save; every failure of every object is reported together.
    open func validateForInsert() throws {}

    /// Checks the object before its changes are saved.
    open func validateForUpdate() throws {}

    /// Checks the object before it is deleted by `save()`.
    open func validateForDelete() throws {}

    // MARK: Reading and writing values

    /// The current value of an attribute by position, firing the fault first.
    @inline(__always)
    final func primitiveValue(at index: Int) -> PrimitiveValue {
        if let context {
            context.checkAccess()
            if flags.contains(.fault) { context.fulfillFaultForAccess(of: self) }
        }
        return index < values.count ? values[index] : .null
    }

    /// Sets an attribute by position and records the change.
    final func setPrimitiveValue(_ value: PrimitiveValue, at index: Int) {
        guard let context else {
            if index < values.count { values[index] = value }
            return
        }
        context.checkAccess()
        if flags.contains(.fault) { context.fulfillFaultForAccess(of: self) }
        guard index < values.count, values[index] != value else { return }
        context.objectWillChange(self)
        values[index] = value
        changedProperties.insert(index)
    }

    /// The position of a declared attribute.
    @inline(__always)
    final func attributeIndex(for key: PropertyKey) -> Int {
        guard let index = entityModel.attributeIndex(for: key) else {
            preconditionFailure("\(entityModel.name) has no attribute '\(key.name)'")
        }
        return index
    }

    /// The typed value of an attribute; used by ``Attribute``.
    @usableFromInline
    final func typedValue<Value: AttributeValue>(forKey key: PropertyKey, as type: Value.Type) -> Value {
        if context == nil, let probe {
            probe.record(key.name)
            return Value.emptyValue
        }
        let index = attributeIndex(for: key)
        let stored = loadingExternalValue(primitiveValue(at: index), at: index)
        if case .null = stored, !Value.isOptional {
            return Value(primitiveValue: entityModel.attributes[index].type.emptyValue) ?? Value.emptyValue
        }
        return Value(primitiveValue: stored) ?? Value.emptyValue
    }

    /// Sets the typed value of an attribute; used by ``Attribute``.
    @usableFromInline
    final func setTypedValue<Value: AttributeValue>(_ value: Value, forKey key: PropertyKey) {
        setPrimitiveValue(value.primitiveValue, at: attributeIndex(for: key))
    }
}

/// What ObjectGraph passes to ``ManagedObject/init(_:)``; only the framework can make one.
public struct ObjectInitialization {
    let entity: EntityModel
    let key: Int64
    let flags: ObjectFlags
    let values: ValueList
    let rowVersion: Int64
    let probe: KeyPathProbe?

    /// A fault for a stored row.
    init(fault entity: EntityModel, key: Int64) {
        self.entity = entity
        self.key = key
        flags = .fault
        values = []
        rowVersion = 0
        probe = nil
    }

    /// An object read from a row.
    init(entity: EntityModel, key: Int64, values: ValueList, rowVersion: Int64) {
        self.entity = entity
        self.key = key
        flags = []
        self.values = values
        self.rowVersion = rowVersion
        probe = nil
    }

    /// A new object about to be inserted: defaults set, no key yet.
    init(inserting entity: EntityModel) {
        self.entity = entity
        key = 0
        flags = []
        values = entity.defaultValues
        rowVersion = 0
        probe = nil
    }

    /// A placeholder whose property reads record the names of a key path.
    init(probe: KeyPathProbe, entity: EntityModel) {
        self.entity = entity
        key = 0
        flags = []
        values = entity.defaultValues
        rowVersion = 0
        self.probe = probe
    }
}

/// The life-cycle flags of an object.
struct ObjectFlags: OptionSet, Sendable {
    let rawValue: UInt8
    /// Values not loaded.
    static let fault = ObjectFlags(rawValue: 1 << 0)
    /// Inserted since the last save.
    static let inserted = ObjectFlags(rawValue: 1 << 1)
    /// Changed since the last save, and listed in the context's updated objects.
    static let updated = ObjectFlags(rawValue: 1 << 2)
    /// Deleted (pending, or saved).
    static let deleted = ObjectFlags(rawValue: 1 << 3)
    /// The row could not be loaded.
    static let inaccessible = ObjectFlags(rawValue: 1 << 4)
    /// Listed in the context's pending deletions (so it is not listed twice).
    static let listedAsDeleted = ObjectFlags(rawValue: 1 << 5)
    /// Inserted, and observers were told so (later changes are announced as updates).
    static let announced = ObjectFlags(rawValue: 1 << 6)
    /// Changed since observers last heard of it (listed in the context's unannounced objects).
    static let unannounced = ObjectFlags(rawValue: 1 << 7)
}
