import Foundation

/// Checks a migrated working copy before it may replace the original:
/// - SQLite's `quick_check` (see ``integrityMessages()`` for why not `integrity_check`), and the
///   schema the copy's metadata records;
/// - its layout equals a new store's of the current schema (tables, columns, keys, indexes, triggers);
/// - per entity: required values present, values of the stored types (tested in the scan that
///   compares the table with the original's), unique values unique, to-many counts within their
///   bounds; no reference to a missing row;
/// - every full-text index a stage made or wrote under covers exactly its rows (any other is the
///   original's, unchanged: see ``rewrittenFullTextIndexes(_:)``);
/// - against the original (attached read-only): the same rows of every entity, and every value no
///   stage meant to change (renamed columns followed) unchanged, relationships included; key
///   counters never lower.
struct MigrationValidator {
    let copy: WorkingCopy
    let stages: [MigrationStage]
    /// The original store, read-only.
    let originalPath: String

    private var connection: SQLiteConnection { copy.connection }

    /// The number of steps `validate` reports progress in.
    static let stepCount: Int64 = 7

    /// Throws ``MigrationError/validationFailed(stage:problems:)`` with every problem found.
    func validate(progress: (Int64) -> Void) throws {
        guard let source = stages.first?.source, let destination = stages.last?.destination else { return }
        var problems: [MigrationProblem] = []
        func problem(_ entity: String?, _ property: String?, _ message: String) {
            problems.append(MigrationProblem(entity: entity, property: property, message: message))
        }

        let integrity = try integrityMessages()
        if integrity != ["ok"] { integrity.prefix(20).forEach { problem(nil, nil, "integrity check: \($0)") } }
        if try copy.metadata(StoreMetadata.Key.schemaChecksum)?.stringValue != destination.checksum {
            problem(nil, nil, "the store's metadata does not record the current schema")
        }
        progress(1)

        let model = try SchemaModel(schema: destination, storeIdentifier: UUID())
        let expected = try SQLiteConnection(path: ":memory:", readOnly: false, create: true)
        for statement in StoreLayout.createStatements(for: model) { try expected.execute(statement) }
        for difference in try LayoutSnapshot(connection).differences(from: LayoutSnapshot(expected)) {
            problem(nil, nil, "layout: \(difference)")
        }
        progress(2)

        for entity in model.entities { problems += try uniquenessAndCountProblems(entity, in: model) }
        progress(3)

        let keys = try connection.statement("PRAGMA foreign_key_check")
        while try keys.step() {
            problem(keys.text(0), nil, "\(keys.isNull(1) ? "a row" : "row \(keys.int64(1))") refers to a missing row of \(keys.text(2))")
            if problems.count > 200 { break }
        }
        keys.reset()
        progress(4)

        let rewritten = try Self.rewrittenFullTextIndexes(stages)
        for entity in model.entities where entity.description.fullTextIndex != nil && rewritten.contains(entity.name) {
            if try !fullTextIndexCoversExactlyItsRows(entity) { problem(entity.name, nil, "the full-text index does not match the rows") }
        }
        progress(5)

        // One scan of each table against the original also tests its values.
        problems += try comparisonWithOriginal(source: source, model: model)
        progress(6)
        if !problems.isEmpty { throw MigrationError.validationFailed(stage: nil, problems: problems) }
        progress(7)
    }

    /// The entities whose full-text index some stage made, rebuilt or wrote under: a new entity's
    /// index, a rebuilt one, indexed text a transform wrote, or a table rebuilt around it. Any
    /// other index is the original's, page for page (the backup API copied it, no trigger wrote to
    /// it while the transforms ran, and the rows it indexes are compared with the original's): it
    /// matches its rows exactly as it did in the original, so only the indexes a stage wrote are
    /// checked (``fullTextIndexCoversExactlyItsRows(_:)``).
    static func rewrittenFullTextIndexes(_ stages: [MigrationStage]) throws -> Set<String> {
        var rewritten = Set<String>()
        for stage in stages {
            let difference = try stage.difference()
            let filled = stage.filledAttributes
            // Names follow renames; an entity a stage removes takes its index with it.
            rewritten = Set(difference.tables.filter { rewritten.contains($0.sourceEntity) }.map(\.entity))
            rewritten.formUnion(difference.rebuiltFullText)
            rewritten.formUnion(difference.addedEntities.filter {
                difference.destinationModel.entity(named: $0)?.description.fullTextIndex != nil
            })
            for table in difference.tables {
                guard let index = difference.destinationModel.entity(named: table.entity)?.description.fullTextIndex else { continue }
                if table.isRebuilt || !(filled[table.entity] ?? []).isDisjoint(with: index.attributes) {
                    rewritten.insert(table.entity)
                }
            }
        }
        return rewritten
    }

    /// Whether the full-text index of `entity` holds one document for each of its rows and none
    /// for a row the table lacks (FTS5 keeps a row of sizes per document, even one without text).
    ///
    /// That is what a stage can get wrong about an index it rewrote: every such index is filled by
    /// FTS5's `rebuild` from the rows as the stage that wrote them leaves them, its triggers gone
    /// while transforms run (``StageRunner``), so what could fail is which rows it covers (a row
    /// added, removed or given another key after the fill). FTS5's own `integrity-check`, which
    /// tokenizes every row again to compare it with the index, would only check that `rebuild` did
    /// what it does, and took a quarter of an upgrade of 100,000 articles (1.39 s of 5.55 s) where
    /// this takes about 0.1 s. The upgrade tests run that token-by-token check after upgrading
    /// (`checkFullTextIndexes()`: `MigrationTests`, and `LibraryFixtureTests` for every shipped
    /// library version). An index is derived data either way: nothing the writer wrote is only in
    /// it, and `rebuildFullTextIndexes()` makes it again from the rows.
    private func fullTextIndexCoversExactlyItsRows(_ entity: EntityModel) throws -> Bool {
        let sizes = SQL.quote(FullTextLayout.tableName(of: entity) + "_docsize")
        let statement = try connection.statement("""
            SELECT EXISTS (SELECT 1 FROM \(sizes) AS document WHERE NOT EXISTS (SELECT 1 FROM \(entity.table) AS row WHERE row._pk = document.id))
                OR EXISTS (SELECT 1 FROM \(entity.table) AS row WHERE NOT EXISTS (SELECT 1 FROM \(sizes) AS document WHERE document.id = row._pk))
            """)
        defer { statement.reset() }
        guard try statement.step() else { return false }
        return statement.int64(0) == 0
    }

    /// SQLite's `quick_check`: every page, b-tree and record of the copy well formed, NOT NULL
    /// and CHECK constraints kept. `integrity_check` also matches every index entry with its row,
    /// which costs seven times as much on a library of 100,000 articles (2.1 s of processor time
    /// against 0.3 s, most of the whole upgrade) and guards nothing the other checks leave open:
    /// the writer's text is in the rows, each compared with the original's below; uniqueness is
    /// checked over the rows; an index the stages built or wrote was kept by SQLite in the same
    /// transactions as its rows, and an index no stage touched is the original's, page for page,
    /// which the library used as it is until now. An index is derived data: were one ever wrong,
    /// `REINDEX` rebuilds it from the rows, and nothing the writer wrote is lost.
    private func integrityMessages() throws -> [String] {
        let statement = try connection.statement("PRAGMA quick_check(50)")
        defer { statement.reset() }
        var messages: [String] = []
        while try statement.step() { messages.append(statement.text(0)) }
        return messages
    }

    /// A test of every row's values: an SQL condition true for a row that fails it, and what a
    /// failing row lacks.
    fileprivate struct ValueTest {
        var condition: String
        var message: String
    }

    /// Required values present and values of the stored types, for the rows of `entity` named
    /// `row` in the query that sums them.
    fileprivate static func valueTests(_ entity: EntityModel, row: String) -> [ValueTest] {
        var tests: [ValueTest] = []
        for column in entity.columns {
            let name = "\(row).\(SQL.quote(column.name))"
            let attribute = column.slot < entity.attributes.count ? entity.attributes[column.slot] : nil
            let relationship = entity.relationships.first { $0.foreignKeySlot == column.slot }
            if attribute.map({ !$0.isOptional }) ?? !(relationship?.description.isOptional ?? true) {
                tests.append(ValueTest(condition: "\(name) IS NULL", message: "\(column.name): rows without the required value"))
            }
            // A value kept outside the database is its reference, as text.
            let external = attribute?.externalStorageThreshold != nil
                ? " AND NOT (typeof(\(name)) = 'text' AND \(name) LIKE '\(ExternalBinaryFolder.referencePrefix)%')" : ""
            tests.append(ValueTest(
                condition: "\(name) IS NOT NULL AND NOT (\(storageTest(name, column.type)))\(external)",
                message: "\(column.name): values not of type \(column.type.rawValue)"))
        }
        return tests
    }

    /// The problems of `tests`, whose failing rows `statement` counted in its columns from `first`.
    private static func valueProblems(_ tests: [ValueTest], of entity: String, in statement: Statement, from first: Int32) -> [MigrationProblem] {
        tests.enumerated().compactMap { offset, test in
            let failing = statement.int64(first + Int32(offset))
            return failing > 0 ? MigrationProblem(entity: entity, message: "\(failing) \(test.message)") : nil
        }
    }

    /// The value tests of an entity the original does not hold, in a scan of its own.
    private func valueProblems(_ entity: EntityModel) throws -> [MigrationProblem] {
        let tests = Self.valueTests(entity, row: "b")
        guard !tests.isEmpty else { return [] }
        let sums = tests.map { "coalesce(sum(\($0.condition)), 0)" }.joined(separator: ", ")
        let statement = try connection.statement("SELECT \(sums) FROM \(entity.table) AS b")
        defer { statement.reset() }
        guard try statement.step() else { return [] }
        return Self.valueProblems(tests, of: entity.name, in: statement, from: 0)
    }

    /// Uniqueness and to-many counts of one entity.
    private func uniquenessAndCountProblems(_ entity: EntityModel, in model: SchemaModel) throws -> [MigrationProblem] {
        var problems: [MigrationProblem] = []
        var slotNames: [Int: String] = [:]
        for column in entity.columns { slotNames[column.slot] = column.name }
        for slots in entity.uniqueSlotSets {
            let names = slots.compactMap { slotNames[$0] }.map(SQL.quote)
            let list = names.joined(separator: ", ")
            let present = names.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            let sql = "SELECT count(*) FROM (SELECT 1 FROM \(entity.table) WHERE \(present) GROUP BY \(list) HAVING count(*) > 1)"
            if let duplicates = try connection.scalar(sql)?.integerValue, duplicates > 0 {
                problems.append(MigrationProblem(entity: entity.name, property: names.joined(separator: ","),
                                                 message: "\(duplicates) values are held by more than one row"))
            }
        }

        for relationship in entity.relationships where relationship.isToMany
            && (relationship.description.minCount != nil || relationship.description.maxCount != nil) {
            let counts: String
            if let join = relationship.joinTable {
                counts = "SELECT (SELECT count(*) FROM \(join.table) AS j WHERE j.\(join.ownColumn) = t._pk) AS n FROM \(entity.table) AS t"
            } else if case .inverseForeignKey(let column) = relationship.storage {
                let destination = model.destination(of: relationship)
                counts = "SELECT (SELECT count(*) FROM \(destination.table) AS d WHERE d.\(SQL.quote(column)) = t._pk) AS n FROM \(entity.table) AS t"
            } else {
                continue
            }
            let low = relationship.description.minCount ?? 0
            let high = relationship.description.maxCount ?? Int.max
            let sql = "SELECT count(*) FROM (\(counts)) WHERE n < \(low) OR n > \(high)"
            if let outside = try connection.scalar(sql)?.integerValue, outside > 0 {
                problems.append(MigrationProblem(entity: entity.name, property: relationship.name,
                                                 message: "\(outside) rows hold a count outside \(low)...\(high)"))
            }
        }
        return problems
    }

    /// The SQL test that a non-null column value is stored as `type` stores it.
    private static func storageTest(_ column: String, _ type: AttributeType) -> String {
        switch type {
        case .string, .decimal, .uri, .json: return "typeof(\(column)) = 'text'"
        case .integer16: return "typeof(\(column)) = 'integer' AND \(column) BETWEEN \(Int16.min) AND \(Int16.max)"
        case .integer32: return "typeof(\(column)) = 'integer' AND \(column) BETWEEN \(Int32.min) AND \(Int32.max)"
        case .integer64: return "typeof(\(column)) = 'integer'"
        case .boolean: return "typeof(\(column)) = 'integer' AND \(column) IN (0, 1)"
        case .double, .date: return "typeof(\(column)) IN ('real', 'integer')"
        case .uuid: return "typeof(\(column)) = 'blob' AND length(\(column)) = 16"
        case .binaryData: return "typeof(\(column)) = 'blob'"
        }
    }

    // MARK: Comparison with the original

    /// Where one entity of the original is now: its table and, for every column no stage meant to
    /// change, the column holding its values.
    private struct Lineage {
        var table: String
        var columns: [String: String]
    }

    /// The comparison of every table with the original's, each in one scan that also runs the
    /// table's value tests (``valueTests(_:row:)``); tables the original has no counterpart of get
    /// a scan of their own for those.
    private func comparisonWithOriginal(source: Schema, model: SchemaModel) throws -> [MigrationProblem] {
        let sourceModel = try SchemaModel(schema: source, storeIdentifier: UUID())
        var lineages: [String: Lineage] = [:]
        for entity in sourceModel.entities {
            lineages[entity.name] = Lineage(
                table: entity.name, columns: Dictionary(uniqueKeysWithValues: (["_version"] + entity.columns.map(\.name)).map { ($0, $0) }))
        }
        var joins: [String: (name: String, flipped: Bool)] = [:]
        for entity in sourceModel.entities {
            for relationship in entity.relationships {
                if let join = relationship.joinTable, join.ownColumn == "source" {
                    let name = String(join.table.dropFirst().dropLast())
                    joins[name] = (name, false)
                }
            }
        }
        for stage in stages {
            let difference = try stage.difference()
            let filled = stage.filledAttributes
            for (entity, lineage) in lineages {
                guard let table = difference.tables.first(where: { $0.sourceEntity == lineage.table }) else {
                    lineages[entity] = nil
                    continue
                }
                let renames = Dictionary(uniqueKeysWithValues: table.renamedColumns.map { ($0.from, $0.to) })
                var columns: [String: String] = [:]
                for (original, current) in lineage.columns {
                    if table.removedColumns.contains(current) || table.columnDuringStage[current]?.hasPrefix("og_old_") == true { continue }
                    let next = renames[current] ?? current
                    if filled[table.entity]?.contains(next) == true { continue }
                    columns[original] = next
                }
                lineages[entity] = Lineage(table: table.entity, columns: columns)
            }
            for (original, current) in joins {
                if let moved = difference.joinTables.first(where: { $0.copiedFrom?.name == current.name }) {
                    joins[original] = (moved.name, current.flipped != moved.copiedFrom!.flipped)
                } else if difference.removedJoinTables.contains(current.name) {
                    joins[original] = nil
                }
            }
        }

        try connection.run("ATTACH DATABASE ? AS original", [.string(SQLiteConnection.uri(originalPath, query: "mode=ro"))])
        defer { try? connection.execute("DETACH DATABASE original") }
        var problems: [MigrationProblem] = []
        for (entity, lineage) in lineages.sorted(by: { $0.key < $1.key }) {
            let old = "original.\(SQL.quote(entity))"
            let new = "main.\(SQL.quote(lineage.table))"
            let counts = try connection.statement("SELECT (SELECT count(*) FROM \(old)), (SELECT count(*) FROM \(new))")
            _ = try counts.step()
            let (before, after) = (counts.int64(0), counts.int64(1))
            counts.reset()
            if before != after { problems.append(MigrationProblem(entity: lineage.table, message: "\(after) rows, the original has \(before)")) }
            // Driven by the copy's rows, so that each is tested: an original row without one is
            // found by the counts (the rows the copy matched fall short of the original's).
            let differs = lineage.columns.sorted { $0.key < $1.key }.map { "a.\(SQL.quote($0.key)) IS NOT b.\(SQL.quote($0.value))" }
            let tests = model.entity(named: lineage.table).map { Self.valueTests($0, row: "b") } ?? []
            let sums = ["a._pk IS NULL", "a._pk IS NOT NULL AND (\((["0"] + differs).joined(separator: " OR ")))"]
                + tests.map(\.condition)
            let scan = try connection.statement(
                "SELECT \(sums.map { "coalesce(sum(\($0)), 0)" }.joined(separator: ", ")) FROM \(new) AS b LEFT JOIN \(old) AS a ON a._pk = b._pk")
            defer { scan.reset() }
            if try scan.step() {
                let matched = after - scan.int64(0)
                let changed = before - matched + scan.int64(1)
                if changed > 0 {
                    problems.append(MigrationProblem(entity: lineage.table, message: "\(changed) rows lost or changed values no stage writes"))
                }
                problems += Self.valueProblems(tests, of: lineage.table, in: scan, from: 2)
            }
            let keys = "SELECT count(*) FROM original.og_primary_key AS a, main.og_primary_key AS b WHERE a.entity = ? AND b.entity = ? AND b.max_key < a.max_key"
            if let lower = try connection.scalar(keys, [.string(entity), .string(lineage.table)])?.integerValue, lower > 0 {
                problems.append(MigrationProblem(entity: lineage.table, message: "the key counter went down: keys would be reused"))
            }
        }
        let compared = Set(lineages.values.map(\.table))
        for entity in model.entities where !compared.contains(entity.name) { problems += try valueProblems(entity) }
        for (original, current) in joins.sorted(by: { $0.key < $1.key }) {
            let columns = current.flipped ? "target, source" : "source, target"
            let old = "original.\(SQL.quote(original))"
            let new = "main.\(SQL.quote(current.name))"
            let sql = """
                SELECT (SELECT count(*) FROM (SELECT source, target FROM \(old) EXCEPT SELECT \(columns) FROM \(new))) \
                + (SELECT count(*) FROM (SELECT \(columns) FROM \(new) EXCEPT SELECT source, target FROM \(old)))
                """
            if let differing = try connection.scalar(sql)?.integerValue, differing > 0 {
                problems.append(MigrationProblem(entity: current.name, message: "\(differing) relationship rows differ from the original"))
            }
        }
        return problems
    }
}

extension Schema {
    /// The SQL conditions a migration's validation tests each row of the entity named
    /// `entityName` against (each true for a row that fails: a required value missing, a value
    /// not stored as its type stores it), for a query that names the row `row`; nil for an entity
    /// the schema has not. quire-bench's raw upgrade, measured against the migrator, runs the
    /// same conditions.
    public func failingRowConditions(ofEntityNamed entityName: String, row: String) throws -> [String]? {
        try SchemaModel(schema: self, storeIdentifier: UUID()).entity(named: entityName)
            .map { MigrationValidator.valueTests($0, row: row).map(\.condition) }
    }
}
