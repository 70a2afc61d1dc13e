import Foundation

/// What changes between two schemas, in the terms of the store's tables, or why the change needs a
/// custom stage.
///
/// Elements are matched by name or, when the source has no element of that name, by the
/// `renamingIdentifier` of the destination's element (the name it had before), as in Core Data: a
/// renaming identifier may stay in later versions. A lightweight migration can:
/// - add an entity, remove an entity, rename an entity;
/// - add an attribute that is optional, has a default or is transient; remove or rename one;
///   make a required attribute optional; change its default, index or history options;
/// - add an optional relationship, remove or rename a relationship, relax its optionality or counts;
/// - add or drop an index or a uniqueness constraint's index (dropping only), change a full-text
///   index (it is derived data and rebuilt).
///
/// Anything else needs a custom stage that fills the attribute in question (``EntityTransform``):
/// a new required attribute without a default, a changed attribute type, an attribute made
/// required or unique. Changes a stage cannot fill (a relationship's destination or cardinality,
/// a new required relationship, tightened counts) are refused.
struct SchemaDifference {
    /// One entity table that exists before and after.
    struct Table {
        /// The entity's name in the destination (the table's name after the stage).
        let entity: String
        /// Its name in the source.
        let sourceEntity: String
        /// Columns renamed: source name to destination name.
        var renamedColumns: [(from: String, to: String)] = []
        /// Destination columns with no source column, each with the value existing rows get.
        var addedColumns: [(column: EntityModel.Column, value: PrimitiveValue)] = []
        /// Destination attributes whose type changed: the stage fills them while the old column
        /// stays beside them as `og_old_NAME` until the stage finishes.
        var replacedColumns: [String] = []
        /// Source columns with no destination column, dropped when the stage finishes.
        var removedColumns: [String] = []
        /// The destination column each source attribute's values are in while the stage's
        /// transforms run, by source attribute name.
        var columnDuringStage: [String: String] = [:]

        /// Whether the table is rebuilt when the stage finishes (columns cannot simply be dropped
        /// while foreign keys, indexes and triggers refer to them).
        var isRebuilt: Bool { !removedColumns.isEmpty || !replacedColumns.isEmpty }
        var isRenamed: Bool { entity != sourceEntity }
    }

    /// A many-to-many join table that is new, or whose name or orientation changes.
    struct JoinTable {
        /// The destination entity that owns it and the relationship.
        let entity: String
        let relationship: String
        /// The table's name after the stage.
        let name: String
        /// The source join table to copy rows from, and whether its `source` column holds the
        /// destination's `target` keys (the orientation flipped); nil for a new relationship.
        let copiedFrom: (name: String, flipped: Bool)?
    }

    let source: Schema
    let destination: Schema
    let sourceModel: SchemaModel
    let destinationModel: SchemaModel
    /// Destination entity name to source entity name, for entities in both.
    let entityMap: [String: String]
    /// The tables of entities in both schemas, in destination order.
    let tables: [Table]
    /// Entities only in the destination.
    let addedEntities: [String]
    /// Entities only in the source.
    let removedEntities: [String]
    /// Join tables to create (and fill from an old one).
    let joinTables: [JoinTable]
    /// Source join tables that no destination join table keeps, dropped when the stage finishes.
    let removedJoinTables: [String]
    /// Source full-text tables that are not kept as they are, dropped when the stage starts.
    let droppedFullTextTables: [String]
    /// Destination entities whose full-text table is created by the stage and must be filled.
    let rebuiltFullText: Set<String>

    init(from source: Schema, to destination: Schema, filled: [String: Set<String>], stage: String) throws {
        self.source = source
        self.destination = destination
        let identifier = UUID()
        sourceModel = try SchemaModel(schema: source, storeIdentifier: identifier)
        destinationModel = try SchemaModel(schema: destination, storeIdentifier: identifier)
        var problems: [MigrationProblem] = []
        func refuse(_ entity: String, _ property: String?, _ message: String) {
            problems.append(MigrationProblem(entity: entity, property: property, message: message))
        }

        var entityMap: [String: String] = [:]
        for entity in destination.entities {
            entityMap[entity.name] = Self.sourceName(entity.name, entity.renamingIdentifier) { source.entity(named: $0) != nil }
        }
        self.entityMap = entityMap
        let mappedSources = Set(entityMap.values)
        addedEntities = destination.entities.map(\.name).filter { entityMap[$0] == nil }
        removedEntities = source.entities.map(\.name).filter { !mappedSources.contains($0) }
        for (entity, attributes) in filled where destination.entity(named: entity) == nil {
            refuse(entity, attributes.sorted().first, "a transform names an entity the destination schema lacks")
        }

        var tables: [Table] = []
        for entityModel in destinationModel.entities {
            guard let sourceName = entityMap[entityModel.name], let sourceEntityModel = sourceModel.entity(named: sourceName) else {
                continue
            }
            tables.append(Self.table(
                entityModel, from: sourceEntityModel, entityMap: entityMap, filled: filled[entityModel.name] ?? [],
                models: (sourceModel, destinationModel), refuse: refuse))
        }
        self.tables = tables

        var joinTables: [JoinTable] = []
        var keptJoinTables = Set<String>()
        for entityModel in destinationModel.entities {
            for relationship in entityModel.relationships {
                guard let join = relationship.joinTable, join.ownColumn == "source" else { continue }
                let name = String(join.table.dropFirst().dropLast())
                guard let sourceEntityName = entityMap[entityModel.name],
                      let sourceRelationship = Self.sourceRelationship(relationship.description, in: sourceModel.entity(named: sourceEntityName)),
                      let sourceJoin = sourceRelationship.joinTable
                else {
                    joinTables.append(JoinTable(entity: entityModel.name, relationship: relationship.name, name: name, copiedFrom: nil))
                    continue
                }
                let sourceName = String(sourceJoin.table.dropFirst().dropLast())
                // The source table's `source` column holds this entity's keys when this side owned it there too.
                let flipped = sourceJoin.ownColumn != "source"
                keptJoinTables.insert(sourceName)
                if sourceName != name || flipped {
                    joinTables.append(JoinTable(
                        entity: entityModel.name, relationship: relationship.name, name: name, copiedFrom: (sourceName, flipped)))
                }
            }
        }
        self.joinTables = joinTables
        removedJoinTables = sourceModel.entities.flatMap { entity in
            entity.relationships.compactMap { relationship -> String? in
                guard let join = relationship.joinTable, join.ownColumn == "source" else { return nil }
                let name = String(join.table.dropFirst().dropLast())
                return keptJoinTables.contains(name) ? nil : name
            }
        }

        var dropped: [String] = []
        var rebuilt = Set<String>()
        for table in tables {
            let sourceIndex = sourceModel.entity(named: table.sourceEntity)?.description.fullTextIndex
            let index = destination.entity(named: table.entity)?.fullTextIndex
            // An FTS5 table names its columns and its content table: it is kept only when neither changes.
            let kept = sourceIndex != nil && sourceIndex == index && !table.isRenamed
                && index!.attributes.allSatisfy { table.columnDuringStage[$0] == $0 && !table.replacedColumns.contains($0) }
            if sourceIndex != nil && !kept { dropped.append("og_fts_\(table.sourceEntity)") }
            if index != nil && !kept { rebuilt.insert(table.entity) }
        }
        for name in removedEntities where source.entity(named: name)?.fullTextIndex != nil { dropped.append("og_fts_\(name)") }
        droppedFullTextTables = dropped
        rebuiltFullText = rebuilt

        if !problems.isEmpty { throw MigrationError.customStageRequired(stage: stage, problems: problems) }
    }

    /// The destination entity's table compared with its source's, column by column.
    private static func table(
        _ entity: EntityModel, from sourceEntity: EntityModel, entityMap: [String: String], filled: Set<String>,
        models: (source: SchemaModel, destination: SchemaModel),
        refuse: (String, String?, String) -> Void
    ) -> Table {
        var table = Table(entity: entity.name, sourceEntity: sourceEntity.name)
        var usedSourceColumns = Set<String>()

        for attribute in entity.attributes where !attribute.isTransient {
            let isFilled = filled.contains(attribute.name)
            let column = entity.columns.first { $0.name == attribute.name }!
            guard let sourceName = Self.sourceName(attribute.name, attribute.renamingIdentifier, { sourceEntity.attributeIndex[$0] != nil }),
                  let sourceAttribute = sourceEntity.description.attribute(named: sourceName), !sourceAttribute.isTransient else {
                // A new column: existing rows get the default, or nil, or what the stage fills in.
                let hasDefault = attribute.defaultValue.map { !$0.isNull } ?? false
                if !attribute.isOptional && !hasDefault && !isFilled {
                    refuse(entity.name, attribute.name,
                           "a new required attribute without a default: give it a default, make it optional, or fill it in a custom stage")
                }
                table.addedColumns.append((column, attribute.defaultValue.flatMap(attribute.type.coerce) ?? .null))
                continue
            }
            usedSourceColumns.insert(sourceName)
            if sourceAttribute.type != attribute.type {
                if isFilled {
                    table.replacedColumns.append(attribute.name)
                    table.columnDuringStage[sourceName] = "og_old_\(attribute.name)"
                    table.addedColumns.append((column, .null))
                    continue
                }
                refuse(entity.name, attribute.name,
                       "the type changes from \(sourceAttribute.type.rawValue) to \(attribute.type.rawValue): convert the values in a custom stage")
            }
            if sourceAttribute.isOptional && !attribute.isOptional && !isFilled {
                refuse(entity.name, attribute.name, "an optional attribute becomes required: fill the missing values in a custom stage")
            }
            if attribute.isUnique && !sourceAttribute.isUnique && !isFilled {
                refuse(entity.name, attribute.name, "an attribute becomes unique: make the values unique in a custom stage")
            }
            table.columnDuringStage[sourceName] = attribute.name
            if sourceName != attribute.name { table.renamedColumns.append((sourceName, attribute.name)) }
        }
        // Source attributes that no destination attribute takes stay readable until the stage finishes.
        for attribute in sourceEntity.attributes where !attribute.isTransient && !usedSourceColumns.contains(attribute.name) {
            table.columnDuringStage[attribute.name] = attribute.name
        }

        for relationship in entity.relationships {
            let sourceRelationship = sourceRelationship(relationship.description, in: sourceEntity)
            guard let sourceRelationship else {
                if !relationship.isToMany && !relationship.description.isOptional {
                    refuse(entity.name, relationship.name, "a new required relationship cannot be inferred")
                }
                if let slot = relationship.foreignKeySlot, let column = entity.columns.first(where: { $0.slot == slot }) {
                    table.addedColumns.append((column, .null))
                }
                continue
            }
            let expectedDestination = entityMap[models.destination.destination(of: relationship).name]
            if expectedDestination != models.source.destination(of: sourceRelationship).name {
                refuse(entity.name, relationship.name, "the relationship points to another entity than before")
            }
            if relationship.isToMany != sourceRelationship.isToMany {
                refuse(entity.name, relationship.name, "the relationship changes between to-one and to-many")
            }
            if !relationship.isToMany && !relationship.description.isOptional && sourceRelationship.description.isOptional {
                refuse(entity.name, relationship.name, "an optional relationship becomes required")
            }
            if (relationship.description.minCount ?? 0) > (sourceRelationship.description.minCount ?? 0)
                || (relationship.description.maxCount ?? Int.max) < (sourceRelationship.description.maxCount ?? Int.max) {
                refuse(entity.name, relationship.name, "the relationship's counts are tightened")
            }
            switch (relationship.foreignKeySlot, sourceRelationship.foreignKeySlot) {
            case (let slot?, .some):
                usedSourceColumns.insert(sourceRelationship.name)
                let column = entity.columns.first { $0.slot == slot }!
                if sourceRelationship.name != column.name { table.renamedColumns.append((sourceRelationship.name, column.name)) }
            case (.some, nil):
                refuse(entity.name, relationship.name, "the key of a one-to-one moves to the other entity's table")
            default:
                break
            }
        }
        table.removedColumns = sourceEntity.columns.map(\.name).filter { !usedSourceColumns.contains($0) }
        // A removed column stays until the stage finishes, so no other column may take its name before.
        let newNames = table.renamedColumns.map(\.to) + table.addedColumns.map(\.column.name)
        for name in newNames where table.removedColumns.contains(name) {
            refuse(entity.name, name, "takes the name of a column removed in the same stage: rename in two stages")
        }
        for keys in entity.description.uniquenessConstraints {
            let sourceKeys = keys.map { name in
                Self.sourceName(name, entity.description.attribute(named: name)?.renamingIdentifier) {
                    sourceEntity.attributeIndex[$0] != nil || sourceEntity.relationshipIndex[$0] != nil
                } ?? name
            }
            let existed = sourceEntity.description.uniquenessConstraints.contains { Set($0) == Set(sourceKeys) }
            if !existed && !keys.allSatisfy(filled.contains) {
                refuse(entity.name, keys.joined(separator: ","), "a new uniqueness constraint: make the values unique in a custom stage")
            }
        }
        return table
    }

    /// The source relationship a destination relationship continues, by name or renaming identifier.
    private static func sourceRelationship(_ relationship: RelationshipDescription, in entity: EntityModel?) -> RelationshipModel? {
        guard let entity,
              let name = sourceName(relationship.name, relationship.renamingIdentifier, { entity.relationshipIndex[$0] != nil })
        else { return nil }
        return entity.relationships.first { $0.name == name }
    }

    /// The source element a destination element continues: the one of the same name, or else the
    /// one its renaming identifier names.
    private static func sourceName(_ name: String, _ renamingIdentifier: String?, _ exists: (String) -> Bool) -> String? {
        if exists(name) { return name }
        return renamingIdentifier.flatMap { exists($0) ? $0 : nil }
    }

    /// The table of a destination entity that exists before and after, if it does.
    func table(for entity: String) -> Table? {
        tables.first { $0.entity == entity }
    }

    /// Whether the stage only adds (tables, columns, join tables, indexes; a full-text index may
    /// be made again): every table and column keeps its name and its values through it.
    var onlyAdds: Bool {
        removedEntities.isEmpty && removedJoinTables.isEmpty && joinTables.allSatisfy { $0.copiedFrom == nil }
            && tables.allSatisfy { !$0.isRebuilt && !$0.isRenamed && $0.renamedColumns.isEmpty }
    }
}
