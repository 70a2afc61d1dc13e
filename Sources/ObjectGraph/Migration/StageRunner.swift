import Foundation

/// Runs one stage on the working copy, step by step, each step ending with a commit that records
/// the next step in the same transaction:
///
/// 1. structure (one transaction): full-text triggers and the indexes that change go, tables and
///    columns are renamed (through temporary names, so that names may swap), columns whose type a
///    transform replaces are set aside as `og_old_NAME`, columns and tables are added, join tables
///    are made (and filled from their old form);
/// 2. transforms (one transaction per batch, with the checkpoint, committed into a write-ahead
///    log): the rows, in the passes the ``TransformSchedule`` gives the stage (its own transforms
///    and those of earlier stages carried to it, one write of each row per pass);
/// 3. finish (one transaction): tables losing columns are rebuilt, removed tables dropped, indexes,
///    full-text tables and triggers made (and filled where new), foreign keys checked (unless the
///    stage only adds), and the copy's schema metadata set to the destination;
/// 4. check: the checks the schedule gives the stage (its own, and those of the stages whose
///    transforms it ran).
final class StageRunner {
    let copy: WorkingCopy
    let schedule: TransformSchedule
    let stage: MigrationStage
    /// The stage's position in the store's list of stages (0-based), and their count.
    let number: Int
    let difference: SchemaDifference
    /// The passes over rows of the transform step.
    let passes: [TransformSchedule.Pass]
    /// Reports rows done of rows to do in this stage.
    let report: (Int64, Int64) -> Void

    init(
        copy: WorkingCopy, schedule: TransformSchedule, number: Int,
        progress: @escaping (MigrationProgress.Phase, Int64, Int64) -> Void
    ) {
        self.copy = copy
        self.schedule = schedule
        self.number = number
        stage = schedule.stages[number]
        difference = schedule.differences[number]
        passes = schedule.passes[number]
        let phase = MigrationProgress.Phase.migrating(stage: number, stageCount: schedule.stages.count, label: stage.label)
        report = { done, total in progress(phase, done, total) }
    }

    var connection: SQLiteConnection { copy.connection }
    var point: String { "stage.\(number + 1)" }

    /// The entity named `name` in the schema the stage leads to. The stage's difference names only
    /// entities of that schema, so a missing one is a plan that does not hold together: an upgrade
    /// on a writer's machine reports it (the original untouched) instead of stopping the program.
    private func destinationEntity(_ name: String) throws -> EntityModel {
        guard let entity = difference.destinationModel.entity(named: name) else {
            throw inconsistent("the schema it leads to has no entity \(name)")
        }
        return entity
    }

    /// A stage whose difference does not match the schema it leads to.
    private func inconsistent(_ reason: String) -> MigrationError {
        .invalidPlan("stage \(stage.label) cannot run: \(reason)")
    }

    /// Runs the stage from `step` to its end (a resumed migration starts in the middle).
    func run(from step: MigrationStep) throws {
        var step = step
        while true {
            switch step {
            case .structure:
                try structure()
                step = passes.isEmpty ? .finish : .transform(transform: 0, checkpoint: 0)
            case .transform(let transform, let checkpoint):
                // Many small commits: into a write-ahead log, without a sync each (see WorkingCopy).
                try copy.withBatchCommits { try self.runPass(transform, after: checkpoint) }
                step = transform + 1 < passes.count ? .transform(transform: transform + 1, checkpoint: 0) : .finish
            case .finish:
                try finish()
                step = .check
            case .check:
                try check()
                return
            }
        }
    }

    // MARK: Structure

    private func structure() throws {
        report(0, 1)
        try copy.transaction {
            let destinationIndexes = Set(StoreLayout.objects(for: difference.destinationModel).filter { $0.kind == .index }.map(\.name))
            let reshaped = Set(difference.tables.filter { $0.isRebuilt || $0.isRenamed }.map(\.sourceEntity))
            for trigger in try copy.objects(ofType: "trigger") where trigger.name.hasPrefix("og_fts_") {
                try connection.execute("DROP TRIGGER \(SQL.quote(trigger.name))")
            }
            for index in try copy.objects(ofType: "index") where index.name.hasPrefix("og_") {
                if !destinationIndexes.contains(index.name) || reshaped.contains(index.table) {
                    try connection.execute("DROP INDEX \(SQL.quote(index.name))")
                }
            }
            for table in difference.droppedFullTextTables where try copy.hasObject(named: table) {
                try connection.execute("DROP TABLE \(SQL.quote(table))")
            }

            // Renames go through temporary names, so that two entities (or columns) may swap names.
            let renamed = difference.tables.filter(\.isRenamed)
            for table in renamed {
                try connection.execute("ALTER TABLE \(SQL.quote(table.sourceEntity)) RENAME TO \(SQL.quote("og_rename_" + table.entity))")
                try connection.run("UPDATE og_primary_key SET entity = ? WHERE entity = ?", [.string(table.entity), .string(table.sourceEntity)])
            }
            for table in renamed {
                try connection.execute("ALTER TABLE \(SQL.quote("og_rename_" + table.entity)) RENAME TO \(SQL.quote(table.entity))")
            }
            for table in difference.tables {
                let name = SQL.quote(table.entity)
                for (source, column) in table.columnDuringStage where column.hasPrefix("og_old_") {
                    try connection.execute("ALTER TABLE \(name) RENAME COLUMN \(SQL.quote(source)) TO \(SQL.quote(column))")
                }
                for (from, to) in table.renamedColumns {
                    try connection.execute("ALTER TABLE \(name) RENAME COLUMN \(SQL.quote(from)) TO \(SQL.quote("og_rename_" + to))")
                }
                for (_, to) in table.renamedColumns {
                    try connection.execute("ALTER TABLE \(name) RENAME COLUMN \(SQL.quote("og_rename_" + to)) TO \(SQL.quote(to))")
                }
                let entity = try destinationEntity(table.entity)
                for (column, value) in table.addedColumns {
                    var definition = StoreLayout.columnDefinition(column, of: entity, in: difference.destinationModel)
                    // Existing rows read the default without a rewrite of the table.
                    if !value.isNull { definition += " DEFAULT \(SQLLiteral.of(value))" }
                    try connection.execute("ALTER TABLE \(name) ADD COLUMN \(definition)")
                }
            }
            for name in difference.addedEntities {
                let entity = try destinationEntity(name)
                try connection.execute(StoreLayout.tableStatement(for: entity, in: difference.destinationModel))
                try connection.execute(StoreLayout.keyCounterStatement(for: name))
            }
            for join in difference.joinTables { try makeJoinTable(join) }

            try copy.record(.migrating(
                stage: number, step: passes.isEmpty ? .finish : .transform(transform: 0, checkpoint: 0)))
            MigrationPoint.reach("\(point).structure.written")
        }
        MigrationPoint.reach("\(point).structure")
    }

    private func makeJoinTable(_ join: SchemaDifference.JoinTable) throws {
        let entity = try destinationEntity(join.entity)
        guard let index = entity.relationshipIndex[join.relationship] else {
            throw inconsistent("the entity \(join.entity) it leads to has no relationship \(join.relationship)")
        }
        let relationship = entity.relationships[index]
        guard let from = join.copiedFrom else {
            try connection.execute(StoreLayout.joinTableStatement(for: relationship, of: entity, in: difference.destinationModel))
            return
        }
        let temporary = from.name == join.name ? "og_rebuild_" + join.name : join.name
        try connection.execute(StoreLayout.joinTableStatement(
            for: relationship, of: entity, in: difference.destinationModel, table: temporary))
        try connection.execute("""
            INSERT INTO \(SQL.quote(temporary)) (source, target) \
            SELECT \(from.flipped ? "target, source" : "source, target") FROM \(SQL.quote(from.name))
            """)
        try connection.execute("DROP TABLE \(SQL.quote(from.name))")
        if temporary != join.name {
            try connection.execute("ALTER TABLE \(SQL.quote(temporary)) RENAME TO \(SQL.quote(join.name))")
        }
    }

    // MARK: Finish

    private func finish() throws {
        let model = difference.destinationModel
        try copy.transaction {
            for table in difference.tables where table.isRebuilt {
                let entity = try destinationEntity(table.entity)
                let temporary = "og_rebuild_" + table.entity
                let columns = (["_pk", "_version"] + entity.columns.map { SQL.quote($0.name) }).joined(separator: ", ")
                try connection.execute(StoreLayout.tableStatement(for: entity, in: model, table: temporary))
                try connection.execute("INSERT INTO \(SQL.quote(temporary)) (\(columns)) SELECT \(columns) FROM \(entity.table)")
                try connection.execute("DROP TABLE \(entity.table)")
                try connection.execute("ALTER TABLE \(SQL.quote(temporary)) RENAME TO \(entity.table)")
            }
            for name in difference.removedEntities {
                try connection.execute("DROP TABLE IF EXISTS \(SQL.quote(name))")
                try connection.run("DELETE FROM og_primary_key WHERE entity = ?", [.string(name)])
            }
            for name in difference.removedJoinTables {
                try connection.execute("DROP TABLE IF EXISTS \(SQL.quote(name))")
            }

            let written = stage.filledAttributes
            for object in StoreLayout.objects(for: model) {
                switch object.kind {
                case .index, .fullTextTable, .trigger:
                    guard try !copy.hasObject(named: object.name) else { continue }
                    do {
                        try connection.execute(object.sql)
                    } catch let error as StoreError where error.kind == .constraint {
                        throw MigrationError.validationFailed(stage: stage.label, problems: try duplicates(object))
                    }
                    guard object.kind == .fullTextTable else { continue }
                    guard let index = try destinationEntity(object.entity).description.fullTextIndex?.attributes else {
                        throw inconsistent("the entity \(object.entity) it leads to has no full-text index")
                    }
                    if difference.rebuiltFullText.contains(object.entity) || !(written[object.entity] ?? []).isDisjoint(with: index) {
                        try FullTextLayout.fill(object.name, on: connection)
                    }
                case .entityTable, .joinTable:
                    continue
                }
            }
            // A kept full-text index whose text a transform rewrote (with its triggers gone) is rebuilt.
            for (entityName, attributes) in written {
                guard let index = model.entity(named: entityName)?.description.fullTextIndex,
                      !difference.rebuiltFullText.contains(entityName), !attributes.isDisjoint(with: index.attributes) else { continue }
                try FullTextLayout.fill("og_fts_" + entityName, on: connection)
            }
            // A stage that only adds cannot break a reference (new columns and join tables start
            // empty; transforms write attributes, never references), so only the others scan
            // every table for one here; validation checks every reference at the end.
            if !difference.onlyAdds {
                let violations = try foreignKeyViolations()
                if !violations.isEmpty { throw MigrationError.validationFailed(stage: stage.label, problems: violations) }
            }
            try copy.recordSchema(stage.destination)
            try copy.record(.migrating(stage: number, step: .check))
            MigrationPoint.reach("\(point).finish.written")
        }
        MigrationPoint.reach("\(point).finish")
    }

    /// The values that keep a unique index from being made, as problems.
    private func duplicates(_ index: StoreLayout.Object) throws -> [MigrationProblem] {
        let names = try indexColumns(index.name)
        let list = names.map(SQL.quote).joined(separator: ", ")
        let sql = "SELECT \(list), count(*) FROM \(SQL.quote(index.entity)) GROUP BY \(list) HAVING count(*) > 1 LIMIT 20"
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        var problems: [MigrationProblem] = []
        while try statement.step() {
            let values = names.indices.map { statement.anyValue(Int32($0)).description }.joined(separator: ", ")
            problems.append(MigrationProblem(
                entity: index.entity, property: names.joined(separator: ","),
                message: "\(statement.int64(Int32(names.count))) rows share the value \(values), which must be unique"))
        }
        return problems
    }

    private func indexColumns(_ index: String) throws -> [String] {
        let statement = try connection.statement("SELECT name FROM pragma_index_info(?) ORDER BY seqno")
        defer { statement.reset() }
        statement.bind([.string(index)])
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        return names
    }

    private func foreignKeyViolations() throws -> [MigrationProblem] {
        let statement = try connection.statement("PRAGMA foreign_key_check")
        defer { statement.reset() }
        var problems: [MigrationProblem] = []
        while try statement.step() {
            let key = statement.isNull(1) ? "a row" : "row \(statement.int64(1))"
            problems.append(MigrationProblem(
                entity: statement.text(0), message: "\(key) refers to a missing row of \(statement.text(2))"))
            if problems.count >= 50 { break }
        }
        return problems
    }

    // MARK: Check

    /// Runs the checks of each stage whose transforms this stage ran (its own among them), each
    /// stage's against the schema it leads to; the first stage with problems fails with them.
    private func check() throws {
        let checks = schedule.checks[number]
        for owner in Set(checks.map(\.stage)).sorted() {
            let ownStage = schedule.stages[owner]
            let inspection = MigrationInspection(connection: connection, schema: ownStage.destination)
            var problems: [MigrationProblem] = []
            for check in checks where check.stage == owner {
                do {
                    problems += try check.check.check(inspection)
                } catch {
                    problems.append(MigrationProblem(message: "check '\(check.check.label)' failed: \(error)"))
                }
            }
            if !problems.isEmpty { throw MigrationError.validationFailed(stage: ownStage.label, problems: problems) }
        }
        MigrationPoint.reach("\(point).checked")
    }
}

/// Values as SQL literals, for column defaults (the one place values cannot be bound).
enum SQLLiteral {
    static func of(_ value: PrimitiveValue) -> String {
        switch value {
        case .null: return "NULL"
        case .string(let text): return quoted(text)
        case .integer(let number): return String(number)
        case .double(let number): return number.isFinite ? "\(number)" : "NULL"
        case .decimal(let number): return quoted(DecimalText.canonical(number))
        case .bool(let flag): return flag ? "1" : "0"
        case .date(let date): return "\(date.timeIntervalSince1970)"
        case .uuid(let uuid): return blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .data(let data): return blob(Array(data))
        case .url(let url): return quoted(url.absoluteString)
        }
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    private static func blob(_ bytes: [UInt8]) -> String {
        "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
    }
}
