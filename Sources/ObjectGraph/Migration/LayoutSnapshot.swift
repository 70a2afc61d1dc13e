/// The structure of a store's tables as SQLite reports it (columns and their declared types,
/// foreign keys, indexes and their columns, triggers), for comparing a migrated store with a new
/// store of the same schema. ObjectGraph's bookkeeping tables (metadata, key counters, history)
/// are left out.
struct LayoutSnapshot: Equatable {
    struct Table: Equatable {
        /// Column name to declared type.
        var columns: [String: String]
        /// Each foreign key as `column -> table(column)`.
        var foreignKeys: Set<String>
    }

    var tables: [String: Table] = [:]
    /// Index name to `table (unique) columns`.
    var indexes: [String: String] = [:]
    /// Trigger name to its table.
    var triggers: [String: String] = [:]

    /// Reads the layout of the connection's main database.
    init(_ connection: SQLiteConnection) throws {
        let objects = try connection.statement("SELECT type, name, tbl_name FROM sqlite_master WHERE sql IS NOT NULL")
        var found: [(type: String, name: String, table: String)] = []
        while try objects.step() { found.append((objects.text(0), objects.text(1), objects.text(2))) }
        objects.reset()
        for object in found where !Self.isBookkeeping(object.table) {
            switch object.type {
            case "table":
                var table = Table(columns: [:], foreignKeys: [])
                for row in try Self.rows(connection, "SELECT name, type FROM pragma_table_info(?)", object.name) {
                    table.columns[row[0]] = row[1].uppercased()
                }
                for row in try Self.rows(connection, "SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?)", object.name) {
                    table.foreignKeys.insert("\(row[0]) -> \(row[1])(\(row[2]))")
                }
                tables[object.name] = table
            case "index":
                let columns = try Self.rows(connection, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", object.name).map { $0[0] }
                let unique = try Self.rows(connection, "SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?", object.table, object.name)
                indexes[object.name] = "\(object.table)\(unique.first?.first == "1" ? " unique" : "") (\(columns.joined(separator: ", ")))"
            case "trigger":
                triggers[object.name] = object.table
            default:
                break
            }
        }
    }

    /// How `self` differs from `expected`, one sentence per difference.
    func differences(from expected: LayoutSnapshot) -> [String] {
        var differences: [String] = []
        for name in Set(expected.tables.keys).union(tables.keys).sorted() {
            switch (tables[name], expected.tables[name]) {
            case (nil, _): differences.append("table \(name) is missing")
            case (_, nil): differences.append("table \(name) should not exist")
            case (let table?, let wanted?) where table != wanted:
                differences.append("table \(name) has columns \(table.columns.sorted { $0.key < $1.key }) and keys \(table.foreignKeys.sorted()), "
                    + "not \(wanted.columns.sorted { $0.key < $1.key }) and \(wanted.foreignKeys.sorted())")
            default: break
            }
        }
        for name in Set(expected.indexes.keys).union(indexes.keys).sorted() where indexes[name] != expected.indexes[name] {
            differences.append("index \(name) is \(indexes[name] ?? "missing"), not \(expected.indexes[name] ?? "absent")")
        }
        for name in Set(expected.triggers.keys).union(triggers.keys).sorted() where triggers[name] != expected.triggers[name] {
            differences.append("trigger \(name) is \(triggers[name].map { "on \($0)" } ?? "missing"), not \(expected.triggers[name].map { "on \($0)" } ?? "absent")")
        }
        return differences
    }

    private static func isBookkeeping(_ table: String) -> Bool {
        table == "og_metadata" || table == "og_primary_key" || table.hasPrefix("og_history_") || table.hasPrefix("sqlite_")
    }

    private static func rows(_ connection: SQLiteConnection, _ sql: String, _ arguments: String...) throws -> [[String]] {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        statement.bind(arguments.map(PrimitiveValue.string))
        var rows: [[String]] = []
        let columns = statement.columnCount
        while try statement.step() { rows.append((0..<columns).map { statement.anyValue($0).textValue }) }
        return rows
    }
}

extension PrimitiveValue {
    /// The value as text for comparing layouts (numbers in decimal, nil empty).
    fileprivate var textValue: String {
        switch self {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .null: return ""
        default: return description
        }
    }
}
