/// The SQL that creates a store's tables for a schema.
///
/// Every entity has a table named after it with `_pk` (the primary key, never reused) and
/// `_version` (incremented by each update, for optimistic locking), then one column per stored
/// attribute and per to-one relationship that holds the foreign key. Many-to-many relationships
/// live in `og_join_Entity_relationship` tables. Foreign keys are deferred to the commit, so a save
/// may write rows in any order but can never leave a dangling reference.
///
/// The layout is a list of named objects, so that a migration can create, drop or compare any
/// one of them with what a new store of the same schema holds.
enum StoreLayout {
    /// One table, index, full-text table or trigger of a store's layout.
    struct Object: Hashable {
        enum Kind: Hashable {
            /// An entity's table.
            case entityTable
            /// A many-to-many relationship's join table.
            case joinTable
            /// An index or unique index.
            case index
            /// An entity's FTS5 table.
            case fullTextTable
            /// A trigger keeping a full-text table current.
            case trigger
        }

        let kind: Kind
        /// The object's name, unquoted.
        let name: String
        /// The entity whose table (or relationship) the object belongs to.
        let entity: String
        let sql: String
    }

    /// The tables ObjectGraph keeps for itself in every store.
    static let metadataStatements = [
        "CREATE TABLE og_metadata (key TEXT PRIMARY KEY NOT NULL, value)",
        "CREATE TABLE og_primary_key (entity TEXT PRIMARY KEY NOT NULL, max_key INTEGER NOT NULL)",
    ]

    static func createStatements(for model: SchemaModel) -> [String] {
        var statements = metadataStatements
        for entity in model.entities {
            let objects = self.objects(for: entity, in: model)
            statements.append(objects[0].sql)
            statements.append(keyCounterStatement(for: entity.name))
            statements += objects.dropFirst().map(\.sql)
        }
        return statements
    }

    /// Every object of the layout, entity by entity, each entity's table first.
    static func objects(for model: SchemaModel) -> [Object] {
        model.entities.flatMap { objects(for: $0, in: model) }
    }

    /// The row of `og_primary_key` a new entity starts with.
    static func keyCounterStatement(for entity: String) -> String {
        "INSERT INTO og_primary_key (entity, max_key) VALUES ('\(entity.replacingOccurrences(of: "'", with: "''"))', 0)"
    }

    /// The entity's table, join tables it owns, indexes, and full-text table and triggers, in the
    /// order they are created.
    static func objects(for entity: EntityModel, in model: SchemaModel) -> [Object] {
        var objects = [Object(kind: .entityTable, name: entity.name, entity: entity.name, sql: tableStatement(for: entity, in: model))]
        for relationship in entity.relationships {
            switch relationship.storage {
            case .foreignKey(let column, _):
                objects.append(index(entity, [column], unique: false, prefix: "og_fk"))
            case .joinTable(let table, let ownColumn, _) where ownColumn == "source":
                let unquoted = String(table.dropFirst().dropLast())
                objects.append(Object(
                    kind: .joinTable, name: unquoted, entity: entity.name,
                    sql: joinTableStatement(for: relationship, of: entity, in: model)))
                objects.append(Object(
                    kind: .index, name: unquoted + "_target", entity: entity.name,
                    sql: "CREATE INDEX \(SQL.quote(unquoted + "_target")) ON \(table) (target, source)"))
            default:
                break
            }
        }
        for attribute in entity.attributes where !attribute.isTransient {
            if attribute.isUnique { objects.append(index(entity, [attribute.name], unique: true, prefix: "og_unique")) }
            if attribute.isIndexed && !attribute.isUnique {
                objects.append(index(entity, [attribute.name], unique: false, prefix: "og_index"))
            }
        }
        for keys in entity.description.uniquenessConstraints {
            objects.append(index(entity, keys, unique: true, prefix: "og_unique"))
        }
        for keys in entity.description.indexes {
            objects.append(index(entity, keys, unique: false, prefix: "og_index"))
        }
        objects += FullTextLayout.objects(for: entity)
        return objects
    }

    /// The `CREATE TABLE` of an entity, under another name when `table` is given (a migration
    /// rebuilds a table under a temporary name).
    static func tableStatement(for entity: EntityModel, in model: SchemaModel, table: String? = nil) -> String {
        var columns = ["_pk INTEGER PRIMARY KEY", "_version INTEGER NOT NULL DEFAULT 1"]
        for column in entity.columns { columns.append(columnDefinition(column, of: entity, in: model)) }
        return "CREATE TABLE \(table.map(SQL.quote) ?? entity.table) (\(columns.joined(separator: ", ")))"
    }

    /// A column's definition in `CREATE TABLE` or `ALTER TABLE ADD COLUMN`: name, type and, for a
    /// to-one's key, the deferred reference.
    static func columnDefinition(_ column: EntityModel.Column, of entity: EntityModel, in model: SchemaModel) -> String {
        var definition = "\(SQL.quote(column.name)) \(column.type.columnType)"
        if let relationship = entity.relationships.first(where: { $0.foreignKeySlot == column.slot }) {
            definition += " REFERENCES \(model.destination(of: relationship).table)(_pk) DEFERRABLE INITIALLY DEFERRED"
        }
        return definition
    }

    /// The join table of a many-to-many that `entity` owns (its `ownColumn` is `source`), under
    /// another name when `table` is given.
    static func joinTableStatement(
        for relationship: RelationshipModel, of entity: EntityModel, in model: SchemaModel, table: String? = nil
    ) -> String {
        guard let join = relationship.joinTable else { return "" }
        let destination = model.destination(of: relationship)
        return """
            CREATE TABLE \(table.map(SQL.quote) ?? join.table) (\
            source INTEGER NOT NULL REFERENCES \(entity.table)(_pk) DEFERRABLE INITIALLY DEFERRED, \
            target INTEGER NOT NULL REFERENCES \(destination.table)(_pk) DEFERRABLE INITIALLY DEFERRED, \
            PRIMARY KEY (source, target)) WITHOUT ROWID
            """
    }

    private static func index(_ entity: EntityModel, _ columns: [String], unique: Bool, prefix: String) -> Object {
        let name = "\(prefix)_\(entity.name)_\(columns.joined(separator: "_"))"
        let sql = "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(SQL.quote(name)) ON \(entity.table) (\(columns.map(SQL.quote).joined(separator: ", ")))"
        return Object(kind: .index, name: name, entity: entity.name, sql: sql)
    }
}
