import Foundation

/// Copies every row SQLite can still read from a damaged store into a new store of the same
/// schema, keeping primary keys (so relationships and object URIs still hold) and the store's
/// identifier.
///
///     let report = try StoreSalvage.salvage(from: copyOfDamagedStore, schemas: plan.schemas, into: newStore)
///
/// Rows are read in ranges of keys; a range SQLite cannot read is split in halves until the
/// unreadable keys are isolated, so one damaged page costs only its own rows. Afterwards, a
/// reference to a row that was not recovered is cleared (an optional to-one, a many-to-many pair);
/// a row whose *required* to-one lost its destination is not inserted but returned in
/// ``Report/orphans`` for the caller to re-home (it may hold a user's text). Full-text indexes
/// are filled as rows are inserted.
///
/// The damaged file is never opened itself: a copy is read (opening a store may replay its log).
public enum StoreSalvage {
    /// What was recovered, by entity.
    public struct Report: Sendable {
        /// The schema the damaged store was read with.
        public var schema: SchemaVersion
        /// Rows copied, by entity.
        public var recovered: [String: Int]
        /// Keys that could not be read, by entity (each may or may not have held a row).
        public var unreadableKeys: [String: Int]
        /// References cleared because their destination was not recovered.
        public var clearedReferences: Int
        /// Rows not inserted because a required relationship's destination was lost, by entity,
        /// each as its column values (attributes by name).
        public var orphans: [String: [[String: PrimitiveValue]]]
    }

    /// Reads the store at `damaged` with the schema its metadata names (or, when that is
    /// unreadable, the newest of `schemas` whose tables it has) and writes what it reads into a new
    /// store at `destination`, which must not exist.
    public static func salvage(from damaged: URL, schemas: [Schema], into destination: URL) throws -> Report {
        // Read a copy (with its log), so that nothing SQLite does while reading touches the file.
        let scratch = destination.deletingLastPathComponent().appendingPathComponent(".salvage-\(UUID().uuidString)")
        try StoreFiles.createFolder(scratch.path)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent("damaged.sqlite").path
        try StoreIntegrity.copyBytes(damaged.path, to: copy)
        if StoreFiles.exists(damaged.path + "-wal") { try StoreIntegrity.copyBytes(damaged.path + "-wal", to: copy + "-wal") }
        try repairHeader(copy)
        let source = try SQLiteConnection(path: copy, readOnly: false, create: false)
        let metadata = try? PersistentStore.readMetadata(source)
        let tables = Set((try? PersistentStore.tableNames(source)) ?? [])
        let schema = schemas.first { $0.checksum == metadata?.schema.checksum }
            ?? schemas.reversed().first { schema in schema.entities.allSatisfy { tables.contains($0.name) } }
        guard let schema else {
            throw StoreError(
                kind: .corrupt, message: "neither the store's metadata nor its tables tell which schema it has",
                path: damaged.path)
        }
        let model = try SchemaModel(schema: schema, storeIdentifier: metadata?.storeIdentifier ?? UUID())

        // A new, empty store of the same schema, written directly.
        _ = try PersistentStore(description: .file(destination), schema: schema)
        let target = try SQLiteConnection(path: destination.path, readOnly: false, create: false)
        try target.execute("PRAGMA foreign_keys = OFF")
        var report = Report(
            schema: SchemaVersion(version: schema.version, checksum: schema.checksum), recovered: [:], unreadableKeys: [:],
            clearedReferences: 0, orphans: [:])
        try target.execute("BEGIN IMMEDIATE")
        do {
            if let identifier = metadata?.storeIdentifier {
                try target.run(
                    "UPDATE og_metadata SET value = ? WHERE key = ?",
                    [.string(identifier.uuidString), .string(StoreMetadata.Key.storeIdentifier)])
            }
            for entity in model.entities {
                let columns = ["_pk", "_version"] + entity.columns.map(\.name)
                let upper = highestKey(of: entity.name, in: source)
                var reader = RangeReader(
                    connection: source, table: entity.name, columns: columns, keyColumn: "_pk")
                let insert = "INSERT INTO \(entity.table) (\(columns.map(SQL.quote).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
                try reader.read(upTo: upper) { row in try target.run(insert, row) }
                report.recovered[entity.name] = reader.rowsRead
                report.unreadableKeys[entity.name] = reader.unreadableKeys
                let counter = max(upper, try target.scalar("SELECT max(_pk) FROM \(entity.table)")?.integerValue ?? 0)
                try target.run("UPDATE og_primary_key SET max_key = ? WHERE entity = ?", [.integer(counter), .string(entity.name)])
            }
            for entity in model.entities {
                for relationship in entity.relationships {
                    guard let join = relationship.joinTable, join.ownColumn == "source" else { continue }
                    let name = String(join.table.dropFirst().dropLast())
                    var reader = RangeReader(connection: source, table: name, columns: ["source", "target"], keyColumn: "source")
                    let insert = "INSERT OR IGNORE INTO \(join.table) (source, target) VALUES (?, ?)"
                    try reader.read(upTo: highestKey(of: entity.name, in: source)) { row in try target.run(insert, row) }
                    let destination = model.destination(of: relationship)
                    try target.run("""
                        DELETE FROM \(join.table) WHERE source NOT IN (SELECT _pk FROM \(entity.table)) \
                        OR target NOT IN (SELECT _pk FROM \(destination.table))
                        """)
                    report.clearedReferences += target.changes
                }
            }
            for entity in model.entities {
                for relationship in entity.relationships {
                    guard case .foreignKey(let column, _) = relationship.storage else { continue }
                    let destination = model.destination(of: relationship)
                    let dangling = "\(SQL.quote(column)) IS NOT NULL AND \(SQL.quote(column)) NOT IN (SELECT _pk FROM \(destination.table))"
                    if relationship.description.isOptional {
                        try target.run("UPDATE \(entity.table) SET \(SQL.quote(column)) = NULL WHERE \(dangling)")
                        report.clearedReferences += target.changes
                    } else {
                        report.orphans[entity.name, default: []] += try rows(of: entity, where: dangling, in: target)
                        try target.run("DELETE FROM \(entity.table) WHERE \(dangling)")
                        report.recovered[entity.name, default: 0] -= target.changes
                    }
                }
            }
            try target.execute("COMMIT")
        } catch {
            if target.isInTransaction { try? target.execute("ROLLBACK") }
            throw error
        }
        return report
    }

    /// Mends the two header fields without which SQLite reads nothing of a file that is otherwise a
    /// database: the magic string (when the fields around it are those of a database), and a page
    /// count larger than the file (a truncated file).
    static func repairHeader(_ path: String) throws {
        guard let size = StoreFiles.size(of: path), size >= 512, let handle = FileHandle(forUpdatingAtPath: path) else { return }
        defer { try? handle.close() }
        var header = [UInt8](try handle.read(upToCount: 100) ?? Data())
        guard header.count == 100 else { return }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        // Page size a power of two from 512, and the payload fractions SQLite always writes.
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0, header[21] == 64, header[22] == 32, header[23] == 32 else { return }
        let magic = Array("SQLite format 3\u{0}".utf8)
        var changed = false
        if Array(header[0..<16]) != magic {
            header.replaceSubrange(0..<16, with: magic)
            changed = true
        }
        let pages = UInt32(size / Int64(pageSize))
        let recorded = UInt32(header[28]) << 24 | UInt32(header[29]) << 16 | UInt32(header[30]) << 8 | UInt32(header[31])
        if recorded > pages {
            header.replaceSubrange(28..<32, with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: pages >> $0) })
            changed = true
        }
        guard changed else { return }
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data(header))
    }

    /// The highest key an entity's rows may have: its key counter, or the largest key SQLite can
    /// find, whichever it can read and is larger.
    private static func highestKey(of entity: String, in connection: SQLiteConnection) -> Int64 {
        let counter = (try? connection.scalar("SELECT max_key FROM og_primary_key WHERE entity = ?", [.string(entity)]))?.integerValue
        let largest = (try? connection.scalar("SELECT max(_pk) FROM \(SQL.quote(entity))"))?.integerValue
        return max(counter ?? 0, largest ?? 0)
    }

    private static func rows(of entity: EntityModel, where condition: String, in connection: SQLiteConnection) throws -> [[String: PrimitiveValue]] {
        let names = entity.columns.map(\.name)
        let statement = try connection.statement(
            "SELECT \(names.map(SQL.quote).joined(separator: ", ")) FROM \(entity.table) WHERE \(condition) ORDER BY _pk")
        defer { statement.reset() }
        var rows: [[String: PrimitiveValue]] = []
        while try statement.step() {
            var row: [String: PrimitiveValue] = [:]
            for (offset, column) in entity.columns.enumerated() {
                row[column.name] = statement.value(Int32(offset), as: column.type)
            }
            rows.append(row)
        }
        return rows
    }
}

/// Reads a table's rows by ranges of a key column, splitting a range SQLite cannot read until the
/// unreadable keys are alone.
private struct RangeReader {
    let connection: SQLiteConnection
    let table: String
    let columns: [String]
    let keyColumn: String
    private(set) var rowsRead = 0
    private(set) var unreadableKeys = 0

    init(connection: SQLiteConnection, table: String, columns: [String], keyColumn: String) {
        self.connection = connection
        self.table = table
        self.columns = columns
        self.keyColumn = keyColumn
    }

    /// Keys per first attempt.
    private static let chunk: Int64 = 512

    mutating func read(upTo upper: Int64, _ body: ([PrimitiveValue]) throws -> Void) throws {
        var start: Int64 = 1
        while start <= upper {
            try read(start, min(upper, start + Self.chunk - 1), body)
            start += Self.chunk
        }
    }

    private mutating func read(_ low: Int64, _ high: Int64, _ body: ([PrimitiveValue]) throws -> Void) throws {
        // A single key is looked up by equality: a range scan steps on to the next page to find its
        // end, and that page may be the damaged one.
        let condition = low == high ? "= ?1" : "BETWEEN ?1 AND ?2"
        let sql = "SELECT \(columns.map(SQL.quote).joined(separator: ", ")) FROM \(SQL.quote(table)) "
            + "WHERE \(SQL.quote(keyColumn)) \(condition) ORDER BY \(SQL.quote(keyColumn))"
        var rows: [[PrimitiveValue]] = []
        do {
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            statement.bind(low == high ? [.integer(low)] : [.integer(low), .integer(high)])
            while try statement.step() { rows.append((0..<Int32(columns.count)).map(statement.anyValue)) }
        } catch let error as StoreError where error.kind == .corrupt || error.kind == .ioError || error.kind == .notADatabase {
            guard low < high else {
                unreadableKeys += 1
                return
            }
            let middle = low + (high - low) / 2
            try read(low, middle, body)
            try read(middle + 1, high, body)
            return
        }
        for row in rows { try body(row) }
        rowsRead += rows.count
    }
}
