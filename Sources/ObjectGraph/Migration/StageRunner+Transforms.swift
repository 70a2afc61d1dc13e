import Foundation

/// The transform step: each pass of the stage over its entity's rows, in batches, each batch one
/// transaction that writes every row of the batch once (with the values of all the pass's
/// transforms) and records the pass's checkpoint.
extension StageRunner {
    /// One transform of a pass, with where it reads and how it decodes and checks its values.
    private struct PreparedTransform {
        var transform: EntityTransform
        /// The label of the stage it belongs to, for errors.
        var stageLabel: String
        var readTypes: [AttributeType]
        var writeTypes: [AttributeType]
        /// The position of each read in the pass's SELECT (after the key).
        var readPositions: [Int32]
    }

    /// Resolves the columns and types of a pass's transforms, each in the terms of its own stage.
    private func prepare(_ pass: TransformSchedule.Pass) throws -> (columns: [String], transforms: [PreparedTransform]) {
        var columns: [String] = []
        var prepared: [PreparedTransform] = []
        for member in pass.members {
            let transform = member.transform
            let ownStage = schedule.stages[member.stage]
            let ownDifference = schedule.differences[member.stage]
            let table = ownDifference.table(for: transform.entity)
            func failure(_ reason: String) -> MigrationError {
                .transformFailed(stage: ownStage.label, entity: transform.entity, key: 0, reason: reason)
            }
            var positions: [Int32] = []
            for name in transform.reads {
                guard let column = table?.columnDuringStage[name] else {
                    throw failure("the transform reads '\(name)', which the source entity does not store")
                }
                if let position = columns.firstIndex(of: column) {
                    positions.append(Int32(position + 1))
                } else {
                    columns.append(column)
                    positions.append(Int32(columns.count))
                }
            }
            let sourceEntity = ownDifference.sourceModel.entity(named: table?.sourceEntity ?? "")?.description
            let destinationEntity = ownDifference.destinationModel.entity(named: transform.entity)?.description
            let writeTypes = try transform.writes.map { name -> AttributeType in
                guard let attribute = destinationEntity?.attribute(named: name), !attribute.isTransient else {
                    throw failure("the transform writes '\(name)', which the destination entity does not store")
                }
                return attribute.type
            }
            prepared.append(PreparedTransform(
                transform: transform, stageLabel: ownStage.label,
                readTypes: transform.reads.map { sourceEntity?.attribute(named: $0)?.type ?? .string },
                writeTypes: writeTypes, readPositions: positions))
        }
        return (columns, prepared)
    }

    /// Runs pass `index` over the rows after `checkpoint`, to the end of the table.
    func runPass(_ index: Int, after checkpoint: Int64) throws {
        let pass = passes[index]
        let (columns, transforms) = try prepare(pass)
        let tableName = SQL.quote(pass.entity)
        let select = "SELECT _pk\(columns.map { ", " + SQL.quote($0) }.joined()) FROM \(tableName) WHERE _pk > ? ORDER BY _pk LIMIT ?"
        let total = try copy.count(pass.entity)
        var done = try connection.scalar("SELECT count(*) FROM \(tableName) WHERE _pk <= ?", [.integer(checkpoint)])?.integerValue ?? 0
        var last = checkpoint
        var batch = 0
        var update = RowUpdate()
        report(done, total)
        while true {
            batch += 1
            let finished = try copy.transaction { () -> Bool in
                var rows: [MigrationRow] = []
                let statement = try connection.statement(select)
                defer { statement.reset() }
                statement.bind([.integer(last), .integer(Int64(pass.batchSize))])
                while try statement.step() {
                    let key = statement.int64(0)
                    for prepared in transforms {
                        rows.append(MigrationRow(
                            key: key, readNames: prepared.transform.reads,
                            readValues: zip(prepared.readPositions, prepared.readTypes).map { statement.value($0, as: $1) },
                            writeNames: prepared.transform.writes, writeTypes: prepared.writeTypes, entity: pass.entity,
                            written: Array(repeating: nil, count: prepared.transform.writes.count)))
                    }
                }
                statement.reset()
                // Each row's transforms are consecutive in `rows`, in the pass's order.
                for start in stride(from: 0, to: rows.count, by: transforms.count) {
                    var values: [(column: String, value: PrimitiveValue)] = []
                    for (offset, prepared) in transforms.enumerated() {
                        var row = rows[start + offset]
                        do {
                            try prepared.transform.transform(&row)
                        } catch MigrationError.transformFailed(_, let entity, let key, let reason) {
                            throw MigrationError.transformFailed(stage: prepared.stageLabel, entity: entity, key: key, reason: reason)
                        } catch {
                            throw MigrationError.transformFailed(
                                stage: prepared.stageLabel, entity: pass.entity, key: row.key, reason: String(describing: error))
                        }
                        for (name, value) in zip(row.writeNames, row.written) {
                            guard let value else { continue }
                            values.removeAll { $0.column == name }
                            values.append((name, value))
                        }
                    }
                    try write(values, key: rows[start].key, into: tableName, reusing: &update)
                }
                guard let key = rows.last?.key else {
                    try copy.record(.migrating(
                        stage: number, step: index + 1 < passes.count ? .transform(transform: index + 1, checkpoint: 0) : .finish))
                    return true
                }
                last = key
                done += Int64(rows.count / max(1, transforms.count))
                try copy.record(.migrating(stage: number, step: .transform(transform: index, checkpoint: key)))
                MigrationPoint.reach("\(point).transform.\(index + 1).batch.\(batch).written")
                return false
            }
            if finished { return }
            MigrationPoint.reach("\(point).transform.\(index + 1).batch.\(batch)")
            report(done, total)
        }
    }

    /// The UPDATE of transformed rows, kept while rows write the same columns (as a pass's rows
    /// usually do), so that a row costs its binds and its step, not its SQL text and a lookup.
    struct RowUpdate {
        var columns: [String] = []
        var statement: Statement?
    }

    private func write(
        _ values: [(column: String, value: PrimitiveValue)], key: Int64, into table: String, reusing update: inout RowUpdate
    ) throws {
        guard !values.isEmpty else { return }
        let columns = values.map(\.column)
        if columns != update.columns || update.statement == nil {
            let assignments = columns.map { "\(SQL.quote($0)) = ?" }.joined(separator: ", ")
            update = RowUpdate(columns: columns, statement: try connection.statement("UPDATE \(table) SET \(assignments) WHERE _pk = ?"))
        }
        let statement = update.statement!
        for (offset, value) in values.enumerated() { statement.bind(value.value, at: Int32(offset + 1)) }
        statement.bind(key, at: Int32(values.count + 1))
        try statement.run()
    }
}
