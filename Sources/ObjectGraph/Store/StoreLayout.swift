/// The SQL that creates a store's tables for a schema.
///
/// Every entity has a table named after it with `_pk` (the primary key, never reused) and
/// `_version` (incremented by each update, for optimistic locking), then one column per stored
/// attribute and per to-one relationship that holds the foreign key. Many-to-many relationships
/// live in `og_join_Entity_relationship` tables. Foreign keys are deferred to the commit, so a save
/// may write rows in any order but can never leave a dangling reference.
enum StoreLayout {
    static func createStatements(for model: SchemaModel) -> [String] {
        var statements = [
            "CREATE TABLE og_metadata (key TEXT PRIMARY KEY NOT NULL, value)",
            "CREATE TABLE og_primary_key (entity TEXT PRIMARY KEY NOT NULL, max_key INTEGER NOT NULL)",
        ]
        for entity in model.entities {
            var columns = ["_pk INTEGER PRIMARY KEY", "_version INTEGER NOT NULL DEFAULT 1"]
            for column in entity.columns {
                var definition = "\(SQL.quote(column.name)) \(column.type.columnType)"
                if let relationship = entity.relationships.first(where: { $0.foreignKeySlot == column.slot }) {
                    definition += " REFERENCES \(model.destination(of: relationship).table)(_pk) DEFERRABLE INITIALLY DEFERRED"
                }
                columns.append(definition)
            }
            statements.append("CREATE TABLE \(entity.table) (\(columns.joined(separator: ", ")))")
            statements.append("INSERT INTO og_primary_key (entity, max_key) VALUES ('\(entity.name)', 0)")

            for relationship in entity.relationships {
                switch relationship.storage {
                case .foreignKey(let column, _):
                    statements.append(index(entity, [column], unique: false, prefix: "og_fk"))
                case .joinTable(let table, let ownColumn, let otherColumn) where ownColumn == "source":
                    let destination = model.destination(of: relationship)
                    statements.append("""
                        CREATE TABLE \(table) (\
                        source INTEGER NOT NULL REFERENCES \(entity.table)(_pk) DEFERRABLE INITIALLY DEFERRED, \
                        target INTEGER NOT NULL REFERENCES \(destination.table)(_pk) DEFERRABLE INITIALLY DEFERRED, \
                        PRIMARY KEY (\(ownColumn), \(otherColumn))) WITHOUT ROWID
                        """)
                    let unquoted = String(table.dropFirst().dropLast())
                    statements.append("CREATE INDEX \(SQL.quote(unquoted + "_target")) ON \(table) (target, source)")
                default:
                    break
                }
            }
            for attribute in entity.attributes where !attribute.isTransient {
                if attribute.isUnique { statements.append(index(entity, [attribute.name], unique: true, prefix: "og_unique")) }
                if attribute.isIndexed && !attribute.isUnique {
                    statements.append(index(entity, [attribute.name], unique: false, prefix: "og_index"))
                }
            }
            for keys in entity.description.uniquenessConstraints {
                statements.append(index(entity, keys, unique: true, prefix: "og_unique"))
            }
            for keys in entity.description.indexes {
                statements.append(index(entity, keys, unique: false, prefix: "og_index"))
            }
            statements += FullTextLayout.createStatements(for: entity)
        }
        return statements
    }

    private static func index(_ entity: EntityModel, _ columns: [String], unique: Bool, prefix: String) -> String {
        let name = SQL.quote("\(prefix)_\(entity.name)_\(columns.joined(separator: "_"))")
        return "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name) ON \(entity.table) (\(columns.map(SQL.quote).joined(separator: ", ")))"
    }
}
