/// Every shipped schema of a store, oldest first, and the stages that lead from each to the next.
///
///     let plan = try MigrationPlan(schemas: [v1, v2, v3], stages: [
///         .custom("reading time", from: v1, to: v2, transforms: [readingTime]),
///         .lightweight(from: v2, to: v3),
///     ])
///     let migrator = StoreMigrator(plan: plan, store: url)
///
/// The plan is checked when it is made: stages chain from the first schema to the last, and every
/// lightweight change can be inferred (``SchemaDifference``), so a mistake fails the first test
/// that builds the plan rather than a writer's upgrade.
public struct MigrationPlan: Sendable {
    /// Every shipped schema, oldest first; the last is the current one.
    public let schemas: [Schema]
    /// The stages, oldest first: stage i leads from `schemas[i]` to `schemas[i + 1]`.
    public let stages: [MigrationStage]

    /// A plan; throws ``MigrationError`` when the stages do not chain or a change needs a custom stage.
    public init(schemas: [Schema], stages: [MigrationStage]) throws {
        guard !schemas.isEmpty else { throw MigrationError.invalidPlan("a plan needs at least one schema") }
        guard stages.count == schemas.count - 1 else {
            throw MigrationError.invalidPlan("\(schemas.count) schemas need \(schemas.count - 1) stages, not \(stages.count)")
        }
        for (index, stage) in stages.enumerated() {
            guard stage.source.checksum == schemas[index].checksum, stage.destination.checksum == schemas[index + 1].checksum else {
                throw MigrationError.invalidPlan("stage \(index + 1) (\(stage.label)) does not lead from schema \(index + 1) to \(index + 2)")
            }
            guard schemas[index].version < schemas[index + 1].version else {
                throw MigrationError.invalidPlan("schema versions must grow: \(schemas[index].version) then \(schemas[index + 1].version)")
            }
            _ = try stage.difference()
        }
        self.schemas = schemas
        self.stages = stages
    }

    /// A plan with one schema and nothing to migrate.
    public init(current: Schema) {
        schemas = [current]
        stages = []
    }

    /// The schema stores are migrated to.
    public var current: Schema { schemas[schemas.count - 1] }

    /// What a store with `version` needs: nothing, the stages from its schema on, or a refusal
    /// (its schema is newer or unknown).
    public func stages(from version: SchemaVersion) throws -> ArraySlice<MigrationStage> {
        guard let index = schemas.firstIndex(where: { $0.checksum == version.checksum }) else {
            throw MigrationError.unknownSchema(
                found: version, current: SchemaVersion(version: current.version, checksum: current.checksum))
        }
        return stages[index...]
    }
}

/// What a store file needs, as ``StoreMigrator/status()`` finds it without writing anything.
public enum MigrationStatus: Sendable, Hashable {
    /// There is no file (a new store will be created).
    case missing
    /// The store has the current schema.
    case upToDate
    /// The store has an older shipped schema; `stages` stages lead to the current one.
    case needed(from: SchemaVersion, stages: Int)
    /// A migration of this store was interrupted in `state`; running the migrator resumes it.
    case interrupted(from: SchemaVersion, state: MigrationState)
    /// The store was written by a newer program, or with a schema this program does not know:
    /// open it read-only at most.
    case unknownSchema(found: SchemaVersion, current: SchemaVersion)
}
