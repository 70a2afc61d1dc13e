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

    /// A stored column's slot and type.
    struct ColumnRead: Sendable {
        let slot: Int
        let type: AttributeType
    }

    let name: String
    /// Position in the schema model; also used in object-ID hashes.
    let number: Int
    let description: EntityDescription
    let objectClass: ManagedObject.Type
    let storeIdentifier: UUID
    let attributes: [AttributeDescription]
    let attributeIndex: [String: Int]
    let relationships: [RelationshipModel]
    let relationshipIndex: [String: Int]
    /// Stored columns, in table order.
    let columns: [Column]
    /// Where each stored column goes in an object's values, without names, for the row-reading loop.
    let readPlan: [ColumnRead]
    /// The number of values an object keeps: attributes, then owned foreign keys.
    let valueCount: Int
    /// What a new object starts with.
    let defaultValues: ContiguousArray<PrimitiveValue>
    /// Value slots that must hold distinct values together, one list per constraint.
    let uniqueSlotSets: [[Int]]
    /// The table name, quoted for SQL.
    let table: String
    /// `SELECT` of full rows by primary key, `keyBatchSize` keys at a time (unused ones bound NULL).
    let rowsByKeySQL: String
    /// Whether any relationship points from this entity at all.
    var hasRelationships: Bool { !relationships.isEmpty }

    init(
        description: EntityDescription, number: Int, relationships: [RelationshipModel], storeIdentifier: UUID
    ) {
        self.description = description
        self.name = description.name
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

        var columns: [Column] = []
        for (index, attribute) in description.attributes.enumerated() where !attribute.isTransient {
            columns.append(Column(name: attribute.name, slot: index, type: attribute.type))
        }
        var defaults = ContiguousArray(description.attributes.map { $0.defaultValue.flatMap($0.type.coerce) ?? .null })
        for relationship in relationships {
            if case .foreignKey(let column, let slot) = relationship.storage {
                columns.append(Column(name: column, slot: slot, type: .integer64))
                defaults.append(.null)
            }
        }
        self.columns = columns
        self.readPlan = columns.map { ColumnRead(slot: $0.slot, type: $0.type) }
        self.valueCount = defaults.count
        self.defaultValues = defaults

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

        let selectList = Self.selectList(table: table, columns: columns, alias: "t0")
        let placeholders = Array(repeating: "?", count: Self.keyBatchSize).joined(separator: ", ")
        rowsByKeySQL = "SELECT \(selectList) FROM \(table) AS t0 WHERE t0._pk IN (\(placeholders))"
    }

    /// An entity with no properties, for placeholder objects that resolve key paths.
    static let placeholder = EntityModel(
        description: EntityDescription("_placeholder"), number: -1, relationships: [],
        storeIdentifier: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))


    /// How many keys one batch load binds.
    static let keyBatchSize = 100

    /// The name of the property at a change-mask position (attributes first, then relationships).
    func propertyName(at position: Int) -> String {
        position < attributes.count ? attributes[position].name : relationships[position - attributes.count].name
    }

    /// The column list that every row read uses: `_pk`, `_version`, then the stored columns.
    func selectList(alias: String) -> String {
        Self.selectList(table: table, columns: columns, alias: alias)
    }

    private static func selectList(table: String, columns: [Column], alias: String) -> String {
        (["\(alias)._pk", "\(alias)._version"] + columns.map { "\(alias).\(SQL.quote($0.name))" })
            .joined(separator: ", ")
    }
}
