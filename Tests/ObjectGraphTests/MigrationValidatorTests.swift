import Foundation
@testable import ObjectGraph
import Testing
import QuireTestSupport

/// What the validation of a migrated copy checks of its full-text indexes: every index a stage
/// made or wrote under, against its rows; an index no stage touched is the original's.
@Suite struct MigrationValidatorTests {
    /// v3 with an optional `color` on notebooks: a change that leaves notes and their index alone.
    private static let v4: Schema = {
        var schema = MigrationModel.v3
        schema.version = 4
        let notebook = schema.entities.firstIndex { $0.name == "Notebook" }!
        schema.entities[notebook].attributes.append(AttributeDescription("color", .string, optional: true))
        return schema
    }()

    @Test func onlyFullTextIndexesAStageWroteUnderAreCheckedAgainstTheirRows() throws {
        // v1 to v2 renames the indexed title: the index is made again.
        #expect(try MigrationValidator.rewrittenFullTextIndexes(try MigrationModel.plan().stages) == ["Note"])
        // v3 to v4 touches notebooks only: the notes' index is the original's.
        #expect(try MigrationValidator.rewrittenFullTextIndexes([.lightweight(from: MigrationModel.v3, to: Self.v4)]).isEmpty)
        // A transform that writes indexed text rebuilds the index.
        let bodies = MigrationStage.custom(
            "bodies", from: MigrationModel.v3, to: Self.v4,
            transforms: [EntityTransform(entity: "Note", reads: ["body"], writes: ["body"], batchSize: 3) { _ in }])
        #expect(try MigrationValidator.rewrittenFullTextIndexes([bodies]) == ["Note"])
        // One that writes other columns of the entity does not.
        let ratings = MigrationStage.custom(
            "ratings", from: MigrationModel.v3, to: Self.v4,
            transforms: [EntityTransform(entity: "Note", reads: ["rating"], writes: ["rating"], batchSize: 3) { _ in }])
        #expect(try MigrationValidator.rewrittenFullTextIndexes([ratings]).isEmpty)
        // An index made again in one stage is still checked after a later stage left it alone.
        let stages = try MigrationModel.plan().stages + [.lightweight(from: MigrationModel.v3, to: Self.v4)]
        #expect(try MigrationValidator.rewrittenFullTextIndexes(stages) == ["Note"])
    }

    /// Ways a rewritten index can leave its rows: a document for a row the table does not hold,
    /// and a row without its document.
    static let indexesThatLeaveTheirRows = [
        "INSERT INTO og_fts_Note (rowid, heading, body) VALUES (9999, 'ghost', 'ghost')",
        "INSERT INTO og_fts_Note (og_fts_Note, rowid, heading, body) SELECT 'delete', _pk, heading, body FROM Note ORDER BY _pk LIMIT 1",
    ]

    @Test(arguments: indexesThatLeaveTheirRows)
    func aRewrittenFullTextIndexThatDisagreesWithItsRowsFailsValidation(change: String) throws {
        let directory = try TemporaryFolder()
        let url = directory.file("notes.store")
        try MigrationModel.writeV1Store(at: url)
        let plan = try MigrationModel.plan()
        let migrator = StoreMigrator(plan: plan, store: url)
        #expect(try MigrationProcess.run(store: url, killAt: "stage.2.checked") == SIGKILL)
        let copy = try WorkingCopy(path: migrator.workspace.appendingPathComponent("working.sqlite").path)
        let validator = MigrationValidator(copy: copy, stages: plan.stages, originalPath: url.path)
        try validator.validate { _ in }
        try copy.connection.execute(change)
        #expect(throws: MigrationError.validationFailed(stage: nil, problems: [
            MigrationProblem(entity: "Note", message: "the full-text index does not match the rows"),
        ])) { try validator.validate { _ in } }
        withExtendedLifetime(directory) {}
    }
}
