import CSQLite
import Foundation
import Library
import ObjectGraph

/// The baseline `raw_sqlite_same_work`: the work the upgrade of a V1 library to the current schema
/// does, done by the fastest honest code on SQLite's C API (a `NOMUTEX` connection, statements
/// prepared once, keys read by index).
///
/// 1. The backup API copies the library into a new file beside it.
/// 2. One transaction on the copy, without a rollback journal and without syncs: the columns the
///    current schema adds (`ALTER TABLE … ADD COLUMN`), its new tables with their key counters,
///    every article rewritten once with its reading time (``ReadingTime/minutes(forWords:)`` of its
///    word count, as the stage's transform) and the default language (one prepared `UPDATE`, keys
///    read first), the new indexes, the full-text table whose definition changed dropped, made
///    again (`prefix='1'`) and filled with FTS5's `rebuild` under the same 64 MB term buffer as
///    ObjectGraph's fill, and the schema's version and checksum in the metadata. One transaction
///    is the fastest way (no batch commits, no journal, each page written once); it is honest
///    about durability because the copy is a new file that replaces nothing until it is synced:
///    a crash leaves the original untouched and a copy to throw away (the migrator pays for
///    resuming instead, which is part of what the ratio shows).
/// 3. The same validation as the migrator's: `quick_check`, the layout against a new store of the
///    current schema, uniqueness over the rows, `foreign_key_check`, a document in each new
///    full-text index for every row and for nothing else, the stages' checks (reading times follow
///    word counts, every article has a language) in one scan, and every table compared with the
///    original (attached read-only) column by column in one scan each, with the value tests
///    (required values present, stored types) in the same scan; join tables both ways; key
///    counters never lower.
/// 4. The copy goes in as a store is kept (write-ahead log), synced once; the original gets a
///    second name in the backup folder and the copy is renamed over it (folders synced).
///
/// The statements are derived untimed from the V1 file and an empty store of the current schema,
/// and only additions are handled (V1 to V6 only adds); ``verify(migrated:raw:)`` checks, before
/// any repetition is timed, that this code and the migrator leave the same store.
struct RawLibraryUpgrade {
    /// Schema objects and columns of a store, to derive and check a layout.
    struct Layout: Equatable {
        /// `type name` → SQL of every object SQLite did not make itself; a table's SQL is left
        /// out (columns added by `ALTER TABLE` change its text, not what it holds).
        var objects: [String: String] = [:]
        /// Columns of every table (name and declared type), sorted: an added column comes last in
        /// a migrated table and in its place in a new store's.
        var columns: [String: [String]] = [:]
    }

    /// Before the row rewrites: full-text tables whose definition changed go, columns are added,
    /// new tables made with their key counters.
    private var structure: [String] = []
    /// After the row rewrites: new indexes, full-text tables and triggers.
    private var finish: [String] = []
    /// Full-text tables filled after they are made.
    private var filledFullText: [String] = []
    private var uniqueChecks: [String] = []
    /// One scan per table of the original: the rows the copy lacks, the rows with another value
    /// in a column the original has, and the rows failing each value test.
    private var comparisons: [String] = []
    /// Value tests of tables the original does not have.
    private var newTableTests: [String] = []
    private var joinComparisons: [String] = []
    private let expected: Layout
    private let schema: Schema
    private let language: String

    /// Derives the work from the V1 file `template` and an empty store of the current schema made
    /// at `expectedStore`.
    init(template: URL, expectedStore: URL, language: String) throws {
        schema = LibrarySchema.current
        self.language = language
        _ = try PersistentContainer(schema: schema, store: .file(expectedStore))
        let (expected, expectedOrder, uniqueIndexes, tableStatements) = try MigrateSuite.withConnection(expectedStore.path) { handle in
            (try Self.layout(of: handle), try Self.columnsInOrder(of: handle), try Self.uniqueIndexColumns(of: handle),
             try Self.tableStatements(of: handle))
        }
        self.expected = expected
        let original = try MigrateSuite.withConnection(template.path) { try Self.layout(of: $0) }

        let virtualTables = expected.objects.filter { $0.value.hasPrefix("CREATE VIRTUAL TABLE") }.map { String($0.key.dropFirst("table ".count)) }
        func isShadow(_ table: String) -> Bool { virtualTables.contains { table.hasPrefix($0 + "_") } }
        for (key, sql) in expected.objects.sorted(by: { $0.key < $1.key }) {
            let type = key.prefix { $0 != " " }
            let name = String(key.dropFirst(type.count + 1))
            guard !isShadow(name), original.objects[key] != sql || (type == "table" && original.columns[name] != expected.columns[name]) else { continue }
            if sql.hasPrefix("CREATE VIRTUAL TABLE") {
                if original.objects[key] != nil { structure.append("DROP TABLE \(Self.quote(name))") }
                finish.append(sql)
                filledFullText.append(name)
            } else if type == "table" {
                if let columns = original.columns[name] {
                    let added = try Self.addedColumns(of: name, from: columns, to: expected.columns[name] ?? [], order: expectedOrder[name] ?? [])
                    structure += added.map { "ALTER TABLE \(Self.quote(name)) ADD COLUMN \($0)" }
                } else {
                    structure.append(tableStatements[name] ?? "")
                    if expected.columns[name]?.contains("_pk INTEGER") == true {
                        structure.append("INSERT INTO og_primary_key (entity, max_key) VALUES ('\(name)', 0)")
                    }
                }
            } else {
                guard original.objects[key] == nil else { throw MigrateBenchmarkError.sameWork("\(key) changes its definition") }
                finish.append(sql)
            }
        }
        // Triggers and indexes go after the tables they belong to.
        finish.sort { ($0.hasPrefix("CREATE VIRTUAL") ? 0 : $0.hasPrefix("CREATE TRIGGER") ? 2 : 1) < ($1.hasPrefix("CREATE VIRTUAL") ? 0 : $1.hasPrefix("CREATE TRIGGER") ? 2 : 1) }
        if let removed = original.objects.keys.first(where: { expected.objects[$0] == nil && !isShadow(String($0.dropFirst("table ".count))) }) {
            throw MigrateBenchmarkError.sameWork("the current schema has no \(removed)")
        }

        for (table, columns) in uniqueIndexes.sorted(by: { $0.key < $1.key }) {
            let list = columns.map(Self.quote).joined(separator: ", ")
            let present = columns.map { "\(Self.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
            uniqueChecks.append("SELECT count(*) FROM (SELECT 1 FROM \(Self.quote(table.components(separatedBy: " ")[0])) WHERE \(present) GROUP BY \(list) HAVING count(*) > 1)")
        }
        for (table, columns) in original.columns.sorted(by: { $0.key < $1.key }) where !isShadow(table) && !table.hasPrefix("og_") || table.hasPrefix("og_join_") {
            let names = columns.map { String($0.prefix { $0 != " " }) }
            if table.hasPrefix("og_join_") {
                let list = names.joined(separator: ", ")
                joinComparisons.append("""
                    SELECT (SELECT count(*) FROM (SELECT \(list) FROM original.\(Self.quote(table)) EXCEPT SELECT \(list) FROM main.\(Self.quote(table)))) \
                    + (SELECT count(*) FROM (SELECT \(list) FROM main.\(Self.quote(table)) EXCEPT SELECT \(list) FROM original.\(Self.quote(table))))
                    """)
                continue
            }
            let differs = names.filter { $0 != "_pk" }.map { "a.\(Self.quote($0)) IS NOT b.\(Self.quote($0))" }
            let sums = ["a._pk IS NULL", "a._pk IS NOT NULL AND (\((["0"] + differs).joined(separator: " OR ")))"]
                + (try schema.failingRowConditions(ofEntityNamed: table, row: "b") ?? [])
            comparisons.append("""
                SELECT (SELECT count(*) FROM original.\(Self.quote(table))), (SELECT count(*) FROM main.\(Self.quote(table))), \
                \(sums.map { "coalesce(sum(\($0)), 0)" }.joined(separator: ", ")) \
                FROM main.\(Self.quote(table)) AS b LEFT JOIN original.\(Self.quote(table)) AS a ON a._pk = b._pk
                """)
        }
        for entity in schema.entities where original.columns[entity.name] == nil {
            let tests = try schema.failingRowConditions(ofEntityNamed: entity.name, row: "b") ?? []
            guard !tests.isEmpty else { continue }
            newTableTests.append("SELECT \(tests.map { "coalesce(sum(\($0)), 0)" }.joined(separator: ", ")) FROM \(Self.quote(entity.name)) AS b")
        }
    }

    // MARK: The timed work

    /// Upgrades the library at `library`, keeping the original in `backupFolder`.
    func run(library: URL, backupFolder: URL) throws {
        let folder = library.deletingLastPathComponent()
        let copy = folder.appendingPathComponent(".\(library.lastPathComponent).upgrade").path
        try MigrateSuite.withConnection(library.path) { original in
            try MigrateSuite.withConnection(copy) { destination in
                try MigrateSuite.execute("PRAGMA synchronous = OFF", destination)
                try MigrateSuite.backup(from: original, to: destination)
            }
        }
        try MigrateSuite.withConnection(copy) { handle in
            for pragma in ["PRAGMA journal_mode = OFF", "PRAGMA synchronous = OFF", "PRAGMA cache_size = -65536"] {
                try MigrateSuite.execute(pragma, handle)
            }
            try MigrateSuite.execute("BEGIN", handle)
            for sql in structure { try MigrateSuite.execute(sql, handle) }
            try rewriteArticles(handle)
            for sql in finish { try MigrateSuite.execute(sql, handle) }
            for table in filledFullText {
                let quoted = Self.quote(table)
                try MigrateSuite.execute("INSERT INTO \(quoted) (\(quoted), rank) VALUES ('hashsize', \(64 * 1_048_576))", handle)
                try MigrateSuite.execute("INSERT INTO \(quoted) (\(quoted)) VALUES ('rebuild')", handle)
                try MigrateSuite.execute("DELETE FROM \(Self.quote(table + "_config")) WHERE k = 'hashsize'", handle)
            }
            try MigrateSuite.execute("UPDATE og_metadata SET value = \(schema.version) WHERE key = 'schema_version'", handle)
            try MigrateSuite.execute("UPDATE og_metadata SET value = '\(schema.checksum)' WHERE key = 'schema_checksum'", handle)
            try MigrateSuite.execute("COMMIT", handle)

            try validate(handle, original: library.path)
            try MigrateSuite.execute("PRAGMA journal_mode = WAL", handle)
        }
        try Self.synchronize(copy)
        try FileManager.default.createDirectory(at: backupFolder, withIntermediateDirectories: true)
        let backup = backupFolder.appendingPathComponent("library-v1-raw.quire").path
        guard link(library.path, backup) == 0 else { throw MigrateBenchmarkError.sameWork("link: \(String(cString: strerror(errno)))") }
        try Self.synchronize(backupFolder.path)
        guard rename(copy, library.path) == 0 else { throw MigrateBenchmarkError.sameWork("rename: \(String(cString: strerror(errno)))") }
        try Self.synchronize(folder.path)
    }

    /// Every article's reading time and language, as the upgrade's one pass over the articles.
    private func rewriteArticles(_ handle: OpaquePointer?) throws {
        var keys: [Int64] = []
        var words: [Int64] = []
        let count = try MigrateSuite.integer("SELECT count(*) FROM Article", handle)
        keys.reserveCapacity(Int(count))
        words.reserveCapacity(Int(count))
        try MigrateSuite.forEachRow("SELECT _pk, wordCount FROM Article", handle) { row in
            keys.append(sqlite3_column_int64(row, 0))
            words.append(sqlite3_column_int64(row, 1))
        }
        let update = try MigrateSuite.prepare("UPDATE Article SET readingMinutes = ?, language = ? WHERE _pk = ?", handle)
        defer { sqlite3_finalize(update) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        try language.withCString { text in
            sqlite3_bind_text(update, 2, text, -1, transient)
            for (key, wordCount) in zip(keys, words) {
                sqlite3_bind_int64(update, 1, Int64(ReadingTime.minutes(forWords: Int(wordCount))))
                sqlite3_bind_int64(update, 3, key)
                guard sqlite3_step(update) == SQLITE_DONE else { throw MigrateSuite.failure(handle) }
                sqlite3_reset(update)
            }
        }
    }

    private func validate(_ handle: OpaquePointer?, original: String) throws {
        var problems: [String] = []
        try MigrateSuite.forEachRow("PRAGMA quick_check(50)", handle) { row in
            let message = MigrateSuite.text(row, 0)
            if message != "ok" { problems.append(message) }
        }
        if try Self.layout(of: handle) != expected { problems.append("the layout is not the current schema's") }
        for sql in uniqueChecks where try MigrateSuite.integer(sql, handle) > 0 { problems.append("duplicates: \(sql)") }
        try MigrateSuite.forEachRow("PRAGMA foreign_key_check", handle) { _ in problems.append("a reference to a missing row") }
        for table in filledFullText {
            // The index holds a document for each row and none for a row the table lacks.
            let (documents, rows) = (Self.quote(table + "_docsize"), Self.quote(String(table.dropFirst("og_fts_".count))))
            let uncovered = """
                SELECT EXISTS (SELECT 1 FROM \(documents) AS d WHERE NOT EXISTS (SELECT 1 FROM \(rows) AS r WHERE r._pk = d.id))
                    OR EXISTS (SELECT 1 FROM \(rows) AS r WHERE NOT EXISTS (SELECT 1 FROM \(documents) AS d WHERE d.id = r._pk))
                """
            if try MigrateSuite.integer(uncovered, handle) != 0 { problems.append("the full-text index \(table) does not match its rows") }
        }
        try MigrateSuite.forEachRow("SELECT wordCount, readingMinutes, language FROM Article", handle) { row in
            let minutes = ReadingTime.minutes(forWords: Int(sqlite3_column_int64(row, 0)))
            if sqlite3_column_int64(row, 1) != Int64(minutes) || sqlite3_column_type(row, 1) != SQLITE_INTEGER {
                problems.append("a reading time that does not follow its word count")
            }
            if sqlite3_column_bytes(row, 2) == 0 { problems.append("an article without a language") }
        }

        try MigrateSuite.execute("ATTACH DATABASE 'file:\(original)?mode=ro' AS original", handle)
        defer { try? MigrateSuite.execute("DETACH DATABASE original", handle) }
        for sql in comparisons {
            try MigrateSuite.forEachRow(sql, handle) { row in
                let (before, after) = (sqlite3_column_int64(row, 0), sqlite3_column_int64(row, 1))
                let changed = before - (after - sqlite3_column_int64(row, 2)) + sqlite3_column_int64(row, 3)
                if changed > 0 || before != after { problems.append("rows lost or changed: \(sql)") }
                for column in 4..<sqlite3_column_count(row) where sqlite3_column_int64(row, column) > 0 {
                    problems.append("values failing a test: \(sql)")
                }
            }
        }
        for sql in newTableTests {
            try MigrateSuite.forEachRow(sql, handle) { row in
                for column in 0..<sqlite3_column_count(row) where sqlite3_column_int64(row, column) > 0 {
                    problems.append("values failing a test: \(sql)")
                }
            }
        }
        for sql in joinComparisons where try MigrateSuite.integer(sql, handle) > 0 { problems.append("relationship rows differ: \(sql)") }
        let lowered = "SELECT count(*) FROM original.og_primary_key AS a JOIN main.og_primary_key AS b USING (entity) WHERE b.max_key < a.max_key"
        if try MigrateSuite.integer(lowered, handle) > 0 { problems.append("a key counter went down") }
        guard problems.isEmpty else { throw MigrateBenchmarkError.sameWork("validation: \(problems.prefix(5))") }
    }

    // MARK: Checking that both did the same

    /// Throws unless the stores the migrator and this code left hold the same schema objects,
    /// metadata, key counters and rows, and their full-text indexes find the same articles.
    static func verify(migrated: URL, raw: URL) throws {
        try MigrateSuite.withConnection(migrated.path) { handle in
            let layout = try layout(of: handle)
            let rawLayout = try MigrateSuite.withConnection(raw.path) { try Self.layout(of: $0) }
            guard layout == rawLayout else { throw MigrateBenchmarkError.sameWork("the layouts differ: \(layout) against \(rawLayout)") }
            try MigrateSuite.execute("ATTACH DATABASE 'file:\(raw.path)?mode=ro' AS raw", handle)
            let metadata = "SELECT count(*) FROM main.og_metadata AS a JOIN raw.og_metadata AS b USING (key) WHERE key IN ('schema_version', 'schema_checksum') AND a.value IS b.value"
            let counters = "SELECT count(*) FROM (SELECT * FROM main.og_primary_key EXCEPT SELECT * FROM raw.og_primary_key)"
            guard try MigrateSuite.integer(metadata, handle) == 2, try MigrateSuite.integer(counters, handle) == 0 else {
                throw MigrateBenchmarkError.sameWork("the metadata or key counters differ")
            }
            for (table, columns) in layout.columns where !table.hasPrefix("og_fts_") && table != "og_metadata" {
                let names = columns.map { String($0.prefix { $0 != " " }) }
                let list = names.map(quote).joined(separator: ", ")
                let differing = "SELECT count(*) FROM (SELECT \(list) FROM main.\(quote(table)) EXCEPT SELECT \(list) FROM raw.\(quote(table)))"
                let counts = "SELECT (SELECT count(*) FROM main.\(quote(table))) - (SELECT count(*) FROM raw.\(quote(table)))"
                guard try MigrateSuite.integer(differing, handle) == 0, try MigrateSuite.integer(counts, handle) == 0 else {
                    throw MigrateBenchmarkError.sameWork("the rows of \(table) differ")
                }
            }
            let firstTitleWord = try MigrateSuite.withConnection(raw.path) { handle in
                try MigrateSuite.textValue("SELECT title FROM Article ORDER BY _pk LIMIT 1", handle)
            }.split(whereSeparator: { !$0.isLetter }).first.map(String.init) ?? "a"
            for query in ["t*", "a*", firstTitleWord, "\(firstTitleWord.prefix(1))*"] {
                let search = "SELECT rowid FROM %@.og_fts_Article WHERE og_fts_Article MATCH '\(query)' ORDER BY rowid"
                let found = try MigrateSuite.integers(search.replacingOccurrences(of: "%@", with: "main"), handle)
                let foundRaw = try MigrateSuite.withConnection(raw.path) { try MigrateSuite.integers(search.replacingOccurrences(of: "%@", with: "main"), $0) }
                guard !found.isEmpty, found == foundRaw else {
                    throw MigrateBenchmarkError.sameWork("a search for \(query) finds \(found.count) articles in one and \(foundRaw.count) in the other")
                }
            }
        }
    }

    // MARK: Deriving the work

    static func layout(of handle: OpaquePointer?) throws -> Layout {
        var layout = Layout()
        var tables: [String] = []
        try MigrateSuite.forEachRow("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'", handle) { row in
            let (type, name) = (MigrateSuite.text(row, 0), MigrateSuite.text(row, 1))
            layout.objects["\(type) \(name)"] = type == "table" && !MigrateSuite.text(row, 2).hasPrefix("CREATE VIRTUAL") ? "" : MigrateSuite.text(row, 2)
            if type == "table" { tables.append(name) }
        }
        for table in tables {
            var columns: [String] = []
            try MigrateSuite.forEachRow("SELECT name, type FROM pragma_table_info('\(table)')", handle) { row in
                columns.append("\(MigrateSuite.text(row, 0)) \(MigrateSuite.text(row, 1))")
            }
            layout.columns[table] = columns.sorted()
        }
        return layout
    }

    /// The statement that made each ordinary table.
    private static func tableStatements(of handle: OpaquePointer?) throws -> [String: String] {
        var statements: [String: String] = [:]
        try MigrateSuite.forEachRow("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'", handle) { row in
            statements[MigrateSuite.text(row, 0)] = MigrateSuite.text(row, 1)
        }
        return statements
    }

    /// The column names of every table, in their order.
    private static func columnsInOrder(of handle: OpaquePointer?) throws -> [String: [String]] {
        var tables: [String] = []
        try MigrateSuite.forEachRow("SELECT name FROM sqlite_master WHERE type = 'table'", handle) { tables.append(MigrateSuite.text($0, 0)) }
        var columns: [String: [String]] = [:]
        for table in tables {
            try MigrateSuite.forEachRow("SELECT name FROM pragma_table_info('\(table)')", handle) { columns[table, default: []].append(MigrateSuite.text($0, 0)) }
        }
        return columns
    }

    /// `TABLE INDEX` → the columns of every unique index the schema asked for.
    private static func uniqueIndexColumns(of handle: OpaquePointer?) throws -> [String: [String]] {
        var indexes: [(table: String, name: String)] = []
        try MigrateSuite.forEachRow("SELECT tbl_name, name FROM sqlite_master WHERE type = 'index' AND sql LIKE 'CREATE UNIQUE INDEX%'", handle) { row in
            indexes.append((MigrateSuite.text(row, 0), MigrateSuite.text(row, 1)))
        }
        var columns: [String: [String]] = [:]
        for index in indexes {
            var names: [String] = []
            try MigrateSuite.forEachRow("SELECT name FROM pragma_index_info('\(index.name)') ORDER BY seqno", handle) { names.append(MigrateSuite.text($0, 0)) }
            columns["\(index.table) \(index.name)"] = names
        }
        return columns
    }

    /// `"name" TYPE` of the columns (`name TYPE`, sorted) `to` has and `from` has not, in the
    /// order of the names in `order`; `to` must keep every column of `from`.
    private static func addedColumns(of table: String, from: [String], to: [String], order: [String]) throws -> [String] {
        guard Set(from).isSubset(of: to) else { throw MigrateBenchmarkError.sameWork("\(table) does not only gain columns") }
        let added = Set(to).subtracting(from)
        return order.compactMap { name in
            added.first { $0.prefix { $0 != " " } == name }.map { "\(quote(name))\($0.dropFirst(name.count))" }
        }
    }


    private static func quote(_ name: String) -> String { "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"" }

    private static func synchronize(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MigrateBenchmarkError.sameWork("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw MigrateBenchmarkError.sameWork("fsync \(path): \(String(cString: strerror(errno)))") }
    }
}
