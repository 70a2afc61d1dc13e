/// Which stage of a migration runs which row transforms and checks.
///
/// A transform rewrites every row of its entity (a new column makes each record longer, so SQLite
/// writes the whole row again), and each rewrite costs a write of the table into the log and
/// another into the file. Two custom stages with only additions between them (a library's
/// reading times, then its languages) would rewrite every article twice. So a stage's transforms
/// are carried to the next stage that has transforms, when nothing from the one to the other
/// changes what they read or write, and run there in the same pass over the rows as that stage's
/// own: one rewrite of each row for both. A stage's checks go with its transforms (they check the
/// transformed rows).
///
/// A transform is carried through a stage only when that stage only adds (``SchemaDifference/onlyAdds``:
/// every table and column keeps its name and values), does not read or write what the transform
/// writes, and what the transform writes is in no index, uniqueness constraint or full-text index
/// until then (an index on a column filled later would be built over empty values first). Its own
/// stage must keep the columns it reads (no table rebuilt when that stage finishes).
struct TransformSchedule {
    /// One transform with the stage it belongs to (a position in ``stages``).
    struct Member {
        var stage: Int
        var transform: EntityTransform
    }

    /// One pass over the rows of an entity: its transforms run on each row in order and the row is
    /// written once with every value they set.
    struct Pass {
        var entity: String
        var members: [Member]
        /// Rows per transaction: the smallest any member asks for.
        var batchSize: Int { members.map(\.transform.batchSize).min() ?? 1 }
    }

    /// One check with the stage it belongs to.
    struct Check {
        var stage: Int
        var check: MigrationCheck
    }

    let stages: [MigrationStage]
    let differences: [SchemaDifference]
    /// The passes each stage's transform step runs, by stage.
    let passes: [[Pass]]
    /// The checks each stage's check step runs, by stage.
    let checks: [[Check]]
    /// The stage whose transform step runs each stage's transforms.
    let runsAt: [Int]

    init(stages: [MigrationStage]) throws {
        self.stages = stages
        let differences = try stages.map { try $0.difference() }
        self.differences = differences

        var runsAt = Array(stages.indices)
        // From the last stage back, so that a stage carried to one that is itself carried goes on
        // to where that one runs (when it may go that far).
        for index in stages.indices.reversed() where !stages[index].transforms.isEmpty {
            guard Self.keepsReads(of: stages[index], differences[index]),
                  let next = stages.indices.first(where: { $0 > index && !stages[$0].transforms.isEmpty }),
                  Self.canCarry(stages[index], through: (index + 1)...next, stages, differences)
            else { continue }
            let target = runsAt[next]
            runsAt[index] = target == next || Self.canCarry(stages[index], through: (next + 1)...target, stages, differences) ? target : next
        }
        self.runsAt = runsAt

        var passes = Array(repeating: [Pass](), count: stages.count)
        var checks = Array(repeating: [Check](), count: stages.count)
        for (index, stage) in stages.enumerated() {
            let target = runsAt[index]
            checks[target] += stage.checks.map { Check(stage: index, check: $0) }
            for transform in stage.transforms {
                let member = Member(stage: index, transform: transform)
                // A transform joins the pass before it (of its entity) unless it reads what that
                // pass writes: it must see those values, which only a pass of its own gives it.
                if var last = passes[target].last, last.entity == transform.entity,
                   last.members.allSatisfy({ Set($0.transform.writes).isDisjoint(with: transform.reads) }) {
                    last.members.append(member)
                    passes[target][passes[target].count - 1] = last
                } else {
                    passes[target].append(Pass(entity: transform.entity, members: [member]))
                }
            }
        }
        self.passes = passes
        self.checks = checks
    }

    /// Which stages' transforms run later, for the working copy's record of its plan: a copy made
    /// by a program that ran them elsewhere must not be resumed (a transform might run twice).
    var signature: String {
        runsAt.enumerated().filter { $0.offset != $0.element }.map { "\($0.offset)>\($0.element)" }.joined(separator: ",")
    }

    /// Whether the columns `stage`'s transforms read stay in place after the stage finishes.
    private static func keepsReads(of stage: MigrationStage, _ difference: SchemaDifference) -> Bool {
        stage.transforms.allSatisfy { transform in
            guard let table = difference.table(for: transform.entity), !table.isRebuilt else { return false }
            return !writesIndexed(transform, in: difference)
        }
    }

    /// Whether every transform of `stage` may run after the stages `range`, in the last one's pass.
    private static func canCarry(
        _ stage: MigrationStage, through range: ClosedRange<Int>, _ stages: [MigrationStage], _ differences: [SchemaDifference]
    ) -> Bool {
        range.allSatisfy { later in
            differences[later].onlyAdds && stage.transforms.allSatisfy { transform in
                let writes = Set(transform.writes)
                return !writesIndexed(transform, in: differences[later])
                    && stages[later].transforms.allSatisfy {
                        $0.entity != transform.entity || (writes.isDisjoint(with: $0.reads) && writes.isDisjoint(with: $0.writes))
                    }
            }
        }
    }

    /// Whether the destination of `difference` indexes anything `transform` writes (an index, a
    /// uniqueness constraint or the full-text index), or lacks its entity.
    private static func writesIndexed(_ transform: EntityTransform, in difference: SchemaDifference) -> Bool {
        guard let entity = difference.destination.entity(named: transform.entity) else { return true }
        var indexed = Set(entity.indexes.joined()).union(entity.uniquenessConstraints.joined())
        indexed.formUnion(entity.attributes.filter { $0.isIndexed || $0.isUnique }.map(\.name))
        indexed.formUnion(entity.fullTextIndex?.attributes ?? [])
        return !indexed.isDisjoint(with: transform.writes)
    }
}
