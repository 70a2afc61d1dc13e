/// One step of a ``MigrationPlan``: from one shipped schema to the next.
///
/// A lightweight stage is inferred from the difference of the two schemas (see
/// ``SchemaDifference``). A custom stage changes the structure the same way and, in between,
/// transforms rows in batches with both schemas in hand: it may fill attributes the inference
/// cannot (a new required attribute without a default, an attribute whose type changed, an
/// optional attribute made required) and adds checks of its own to the validation.
///
///     let v1ToV2 = MigrationStage.custom("reading time", from: v1, to: v2,
///         transforms: [
///             EntityTransform(entity: "Article", reads: ["wordCount"], writes: ["readingMinutes"]) { row in
///                 let words = row.source("wordCount").integerValue ?? 0
///                 try row.set("readingMinutes", .integer((words + 229) / 230))
///             },
///         ])
public struct MigrationStage: Sendable {
    /// A short name for progress and errors.
    public var label: String
    /// The schema the stage starts from.
    public var source: Schema
    /// The schema the stage leaves.
    public var destination: Schema
    /// The row transforms of a custom stage, run in order; empty for a lightweight stage.
    public var transforms: [EntityTransform]
    /// Checks of a custom stage, run on the migrated rows before the stage counts as done.
    public var checks: [MigrationCheck]

    /// A stage inferred from the difference of two schemas.
    public static func lightweight(from source: Schema, to destination: Schema) -> MigrationStage {
        MigrationStage(
            label: "version \(source.version) to \(destination.version)", source: source, destination: destination,
            transforms: [], checks: [])
    }

    /// A stage that transforms rows between the structural changes.
    public static func custom(
        _ label: String, from source: Schema, to destination: Schema, transforms: [EntityTransform],
        checks: [MigrationCheck] = []
    ) -> MigrationStage {
        MigrationStage(label: label, source: source, destination: destination, transforms: transforms, checks: checks)
    }

    /// Whether the stage only changes structure.
    public var isLightweight: Bool { transforms.isEmpty && checks.isEmpty }

    /// The attributes the stage's transforms write, by destination entity.
    var filledAttributes: [String: Set<String>] {
        var filled: [String: Set<String>] = [:]
        for transform in transforms { filled[transform.entity, default: []].formUnion(transform.writes) }
        return filled
    }

    /// The structural changes, or the reasons the stage cannot make them.
    func difference() throws -> SchemaDifference {
        try SchemaDifference(from: source, to: destination, filled: filledAttributes, stage: label)
    }
}

/// The work of a custom stage on one entity: every row, in batches of `batchSize` rows, each batch
/// one transaction with the stage's checkpoint (a migration killed in between resumes after the
/// last committed batch).
public struct EntityTransform: Sendable {
    /// The entity in the destination schema.
    public var entity: String
    /// The source-schema attributes the transform reads (``MigrationRow/source(_:)``).
    public var reads: [String]
    /// The destination-schema attributes it sets (``MigrationRow/set(_:_:)``).
    public var writes: [String]
    /// Rows per transaction.
    public var batchSize: Int
    /// Called for every row, in primary-key order.
    public var transform: @Sendable (inout MigrationRow) throws -> Void

    /// A transform of `entity` reading `reads` and setting `writes`.
    public init(
        entity: String, reads: [String], writes: [String], batchSize: Int = 1000,
        transform: @escaping @Sendable (inout MigrationRow) throws -> Void
    ) {
        self.entity = entity
        self.reads = reads
        self.writes = writes
        self.batchSize = max(1, batchSize)
        self.transform = transform
    }
}

/// A check a custom stage adds to the validation: it reads the migrated rows and reports every
/// problem it finds (an empty list passes).
public struct MigrationCheck: Sendable {
    /// What it checks, for reports.
    public var label: String
    /// The check.
    public var check: @Sendable (MigrationInspection) throws -> [MigrationProblem]

    /// A check named `label`.
    public init(_ label: String, check: @escaping @Sendable (MigrationInspection) throws -> [MigrationProblem]) {
        self.label = label
        self.check = check
    }
}
