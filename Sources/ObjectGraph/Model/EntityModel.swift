import Foundation

/// An entity compiled for one loaded store: positions of its properties, its table layout and the
/// SQL the store reuses for it. Immutable, shared by every context of the store.
final class EntityModel: Sendable {
    /// One stored column after `_pk` and `_version`, in table order.
    struct Column: Sendable {
        let name: String
        /// Position in an object's values.
        let slot: Int
        let type: AttributeType
    }

    /// Where one value slot comes from when a row is read: a column (offset after `_pk` and
    /// `_version`) or, for transients, the default.
    struct SlotRead: Sendable {
        /// -1 for a slot without a column.
        let column: Int32
        let type: AttributeType
    }

    let name: String
    /// The hash of `name`, computed once: object IDs hash it.
    let nameHash: Int
    /// Position in the schema model; also used in object-ID hashes.
    let number: Int
    let description: EntityDescription
    let objectClass: ManagedObject.Type
    let storeIdentifier: UUID
    let attributes: [AttributeDescription]
    let attributeIndex: [String: Int]
    let relationships: [RelationshipModel]
    let relationshipIndex: [String: Int]
    /// Attribute positions by the literal address of the object class's property keys.
    private let attributeKeys: [(bits: UInt, index: Int)]
    /// Relationship positions by the literal address of the object class's property keys.
    private let relationshipKeys: [(bits: UInt, index: Int)]
    /// Stored columns, in table order.
    let columns: [Column]
    /// How each value slot is read from a row, in slot order, without names: the row-reading loop.
    let slotReads: [SlotRead]
    /// The number of values an object keeps: attributes, then owned foreign keys.
    let valueCount: Int
    /// What a new object starts with.
    let defaultValues: ValueList
    /// Value slots that must hold distinct values together, one list per constraint.
    let uniqueSlotSets: [[Int]]
    /// Every slot of `uniqueSlotSets`, as one set (an update checks its changed slots against it).
    let uniqueSlots: PropertyMask
    /// Attribute slots whose values a delete keeps in persistent history.
    let tombstoneSlots: [Int]
    /// Binary attribute slots whose large values live in files beside the store, with the size
    /// from which they do (see ``ExternalBinaryFolder``).
    let externalSlots: [(slot: Int, threshold: Int)]
    /// The table name, quoted for SQL.
    let table: String
    /// `SELECT` of full rows by primary key, `keyBatchSize` keys at a time (unused ones bound NULL).
    let rowsByKeySQL: String
    /// The column list of full rows for the root table of a query (alias `t0`).
    let rootSelectList: String

    init(
        description: EntityDescription, number: Int, relationships: [RelationshipModel], storeIdentifier: UUID,
        declaredKeys: [PropertyKey] = []
    ) {
        self.description = description
        self.name = description.name
        self.nameHash = description.name.hashValue
        self.number = number
        self.objectClass = description.objectClass
        self.storeIdentifier = storeIdentifier
        self.attributes = description.attributes
        self.relationships = relationships
        self.table = SQL.quote(description.name)

        var attributeIndex: [String: Int] = [:]
        for (index, attribute) in description.attributes.enumerated() { attributeIndex[attribute.name] = index }
        self.attributeIndex = attributeIndex

        var relationshipIndex: [String: Int] = [:]
        for relationship in relationships { relationshipIndex[relationship.name] = relationship.index }
        self.relationshipIndex = relationshipIndex
        attributeKeys = declaredKeys.compactMap { key in attributeIndex[key.name].map { (key.bits, $0) } }
        relationshipKeys = declaredKeys.compactMap { key in relationshipIndex[key.name].map { (key.bits, $0) } }

        var columns: [Column] = []
        for (index, attribute) in description.attributes.enumerated() where !attribute.isTransient {
            columns.append(Column(name: attribute.name, slot: index, type: attribute.type))
        }
        var defaults = description.attributes.map { $0.defaultValue.flatMap($0.type.coerce) ?? .null }
        for relationship in relationships {
            if case .foreignKey(let column, let slot) = relationship.storage {
                columns.append(Column(name: column, slot: slot, type: .integer64))
                defaults.append(.null)
            }
        }
        self.columns = columns
        var slotReads = Array(repeating: SlotRead(column: -1, type: .string), count: defaults.count)
        for (offset, column) in columns.enumerated() { slotReads[column.slot] = SlotRead(column: Int32(offset), type: column.type) }
        self.slotReads = slotReads
        self.valueCount = defaults.count
        self.defaultValues = ValueList(defaults)

        var slotByName: [String: Int] = attributeIndex
        for relationship in relationships {
            if let slot = relationship.foreignKeySlot { slotByName[relationship.name] = slot }
        }
        var uniqueSlotSets = description.attributes.enumerated()
            .filter { $0.element.isUnique && !$0.element.isTransient }
            .map { [$0.offset] }
        for keys in description.uniquenessConstraints {
            let slots = keys.compactMap { slotByName[$0] }
            if slots.count == keys.count { uniqueSlotSets.append(slots) }
        }
        self.uniqueSlotSets = uniqueSlotSets
        var uniqueSlots = PropertyMask()
        for slot in uniqueSlotSets.joined() { uniqueSlots.insert(slot) }
        self.uniqueSlots = uniqueSlots
        externalSlots = description.attributes.enumerated().compactMap { index, attribute in
            attribute.externalStorageThreshold.map { (index, $0) }
        }
        tombstoneSlots = description.attributes.indices.filter {
            description.attributes[$0].preservesValueInHistoryOnDeletion && !description.attributes[$0].isTransient
        }

        let selectList = Self.selectList(table: table, columns: columns, alias: "t0")
        rootSelectList = selectList
        let placeholders = Array(repeating: "?", count: Self.keyBatchSize).joined(separator: ", ")
        rowsByKeySQL = "SELECT \(selectList) FROM \(table) AS t0 WHERE t0._pk IN (\(placeholders))"
    }

    /// An entity with no properties, for placeholder objects that resolve key paths.
    static let placeholder = EntityModel(
        description: EntityDescription("_placeholder"), number: -1, relationships: [],
        storeIdentifier: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))


    /// How many keys one batch load binds.
    static let keyBatchSize = 100

    /// The position of the attribute a property wrapper names: by literal address for the keys of
    /// the object class, by name otherwise.
    @inline(__always)
    func attributeIndex(for key: PropertyKey) -> Int? {
        for entry in attributeKeys where entry.bits == key.bits { return entry.index }
        return attributeIndex[key.name]
    }

    /// The position of the relationship a property wrapper names.
    @inline(__always)
    func relationshipIndex(for key: PropertyKey) -> Int? {
        for entry in relationshipKeys where entry.bits == key.bits { return entry.index }
        return relationshipIndex[key.name]
    }

    /// The change-mask position of an attribute or relationship (attributes first, then relationships).
    func position(ofProperty name: String) -> Int? {
        if let index = attributeIndex[name] { return index }
        return relationshipIndex[name].map { attributes.count + $0 }
    }

    /// The change-mask position of the property a value slot holds (an attribute, or the to-one
    /// relationship whose key the slot holds).
    func position(ofSlot slot: Int) -> Int? {
        if slot < attributes.count { return slot }
        return relationships.first { $0.foreignKeySlot == slot }.map { attributes.count + $0.index }
    }

    /// The name of the property at a change-mask position (attributes first, then relationships).
    func propertyName(at position: Int) -> String {
        position < attributes.count ? attributes[position].name : relationships[position - attributes.count].name
    }

    /// The names of the properties stored in value slots (attributes, and to-ones by their foreign
    /// key): the keys of a uniqueness constraint.
    func names(ofSlots slots: [Int]) -> [String] {
        slots.map { slot in
            slot < attributes.count ? attributes[slot].name : relationships.first { $0.foreignKeySlot == slot }!.name
        }
    }

    /// The column list that every row read uses: `_pk`, `_version`, then the stored columns.
    func selectList(alias: String) -> String {
        alias == "t0" ? rootSelectList : Self.selectList(table: table, columns: columns, alias: alias)
    }

    private static func selectList(table: String, columns: [Column], alias: String) -> String {
        (["\(alias)._pk", "\(alias)._version"] + columns.map { "\(alias).\(SQL.quote($0.name))" })
            .joined(separator: ", ")
    }
}
