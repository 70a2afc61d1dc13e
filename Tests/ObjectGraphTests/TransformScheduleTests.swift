import Foundation
@testable import ObjectGraph
import Testing
import QuireTestSupport

/// Two custom stages with only additions between them rewrite each row once: the first stage's
/// transforms are carried to the second's pass over the rows, with their checks.
@Suite struct TransformScheduleTests {
    @Test func aStagesTransformsRunInTheNextCustomStagesPassWhenOnlyAdditionsLieBetween() throws {
        let schedule = try TransformSchedule(stages: try CarriedModel.plan().stages)
        // v1 → v2 renames (lightweight), v2 → v3 retypes the rating (its table is rebuilt: runs
        // where it is); reading minutes are carried over the added index into the languages' pass.
        #expect(schedule.runsAt == [0, 1, 4, 3, 4])
        #expect(schedule.passes[2].isEmpty && schedule.checks[2].isEmpty)
        #expect(schedule.passes[4].map(\.entity) == ["Note"])
        #expect(schedule.passes[4].first?.members.map(\.stage) == [2, 4])
        #expect(schedule.passes[4].first?.batchSize == 2)
        #expect(schedule.checks[4].map(\.stage) == [2])
        #expect(schedule.signature == "2>4")
    }

    @Test func transformsStayInTheirStageWhenALaterStageDependsOnWhatTheyWrite() throws {
        // The languages' transform reads the reading minutes: it must see them written.
        var languages = CarriedModel.w5ToW6
        languages.transforms[0].reads.append("readingMinutes")
        #expect(try TransformSchedule(stages: CarriedModel.stages(languages: languages)).runsAt == [0, 1, 2])

        // The stage between indexes the reading minutes: the index would be built over empty values.
        var indexed = CarriedModel.w5
        let note = indexed.entities.firstIndex { $0.name == "Note" }!
        indexed.entities[note].indexes.append(["readingMinutes"])
        var w6 = CarriedModel.w6
        w6.entities[note].indexes = indexed.entities[note].indexes
        var last = CarriedModel.w5ToW6
        last.source = indexed
        last.destination = w6
        let stages: [MigrationStage] = [CarriedModel.w3ToW4, .lightweight(from: CarriedModel.w4, to: indexed), last]
        #expect(try TransformSchedule(stages: stages).runsAt == [0, 1, 2])

        // A stage between that renames a column does not only add.
        var renamed = CarriedModel.w5
        let notebook = renamed.entities.firstIndex { $0.name == "Notebook" }!
        renamed.entities[notebook].attributes[0] = AttributeDescription("title", .string, unique: true, renamingIdentifier: "name")
        var after = CarriedModel.w6
        after.entities[notebook].attributes[0] = renamed.entities[notebook].attributes[0]
        last.source = renamed
        last.destination = after
        let renaming: [MigrationStage] = [CarriedModel.w3ToW4, .lightweight(from: CarriedModel.w4, to: renamed), last]
        #expect(try TransformSchedule(stages: renaming).runsAt == [0, 1, 2])
    }

    @Test func carriedTransformsGiveTheValuesOfStagesRunOneAfterTheOther() throws {
        let directory = try TemporaryFolder()
        let url = directory.file("notes.store")
        try MigrationModel.writeV1Store(at: url)
        let progress = ProgressLog()
        let outcome = try StoreMigrator(plan: try CarriedModel.plan(), store: url).runNow { progress.record($0) }
        #expect(outcome.stagesRun == 5)
        // The reading minutes' stage went over no rows; the languages' stage over every note once.
        #expect(progress.rowTotals(ofStage: 2).isEmpty)
        #expect(progress.rowTotals(ofStage: 4) == [MigrationModel.notes.count])
        try CarriedModel.expectTransformed(url)
        withExtendedLifetime(directory) {}
    }

    @Test func aMigrationKilledInACarriedPassResumesAndWritesEveryRow() throws {
        let directory = try TemporaryFolder()
        let url = directory.file("notes.store")
        try MigrationModel.writeV1Store(at: url)
        let original = try Data(contentsOf: url)
        #expect(try MigrationProcess.run(store: url, killAt: "stage.5.transform.1.batch.2", plan: .carried) == SIGKILL)
        #expect(try Data(contentsOf: url) == original)
        let migrator = StoreMigrator(plan: try CarriedModel.plan(), store: url)
        guard case .interrupted(_, .migrating(stage: 4, step: .transform(transform: 0, let checkpoint))) = try migrator.status() else {
            Issue.record("status: \(try migrator.status())")
            return
        }
        #expect(checkpoint == 4)
        #expect(try migrator.runNow().resumed)
        try CarriedModel.expectTransformed(url)
        withExtendedLifetime(directory) {}
    }

    @Test func aFailingCheckOfACarriedStageNamesThatStage() throws {
        let directory = try TemporaryFolder()
        let url = directory.file("notes.store")
        try MigrationModel.writeV1Store(at: url)
        let original = try Data(contentsOf: url)
        var minutes = CarriedModel.w3ToW4
        minutes.checks = [MigrationCheck("never") { _ in [MigrationProblem(entity: "Note", message: "not today")] }]
        let plan = try MigrationPlan(
            schemas: [MigrationModel.v1, MigrationModel.v2, MigrationModel.v3, CarriedModel.w4, CarriedModel.w5, CarriedModel.w6],
            stages: [.lightweight(from: MigrationModel.v1, to: MigrationModel.v2), MigrationModel.v2ToV3]
                + CarriedModel.stages(minutes: minutes))
        #expect(throws: MigrationError.validationFailed(
            stage: minutes.label, problems: [MigrationProblem(entity: "Note", message: "not today")])) {
            try StoreMigrator(plan: plan, store: url).runNow()
        }
        #expect(try Data(contentsOf: url) == original)
        withExtendedLifetime(directory) {}
    }
}

/// The notes schema after `MigrationModel.v3`: reading minutes computed from the word count
/// (custom), an optional mood on notebooks and an index on the priority (lightweight, only
/// additions), every note's language from its body (custom).
enum CarriedModel {
    static let w4: Schema = {
        var schema = MigrationModel.v3
        schema.version = 4
        let note = schema.entities.firstIndex { $0.name == "Note" }!
        schema.entities[note].attributes.append(AttributeDescription("readingMinutes", .integer64))
        return schema
    }()

    static let w5: Schema = {
        var schema = w4
        schema.version = 5
        let note = schema.entities.firstIndex { $0.name == "Note" }!
        schema.entities[note].indexes.append(["priority"])
        let notebook = schema.entities.firstIndex { $0.name == "Notebook" }!
        schema.entities[notebook].attributes.append(AttributeDescription("mood", .string, optional: true))
        return schema
    }()

    static let w6: Schema = {
        var schema = w5
        schema.version = 6
        let note = schema.entities.firstIndex { $0.name == "Note" }!
        schema.entities[note].attributes.append(AttributeDescription("language", .string))
        return schema
    }()

    static func minutes(forWords words: Int64) -> Int64 { (words + 199) / 200 }
    static func language(of body: String) -> String { body.contains("recette") ? "fr" : "en" }

    static let w3ToW4 = MigrationStage.custom(
        "reading minutes", from: MigrationModel.v3, to: w4,
        transforms: [
            EntityTransform(entity: "Note", reads: ["wordCount"], writes: ["readingMinutes"], batchSize: 2) { row in
                try row.set("readingMinutes", .integer(minutes(forWords: row.source("wordCount").integerValue ?? 0)))
            },
        ],
        checks: [
            MigrationCheck("reading minutes follow word counts") { inspection in
                var problems: [MigrationProblem] = []
                try inspection.forEachRow(of: "Note", attributes: ["wordCount", "readingMinutes"]) { key, values in
                    if values[1].integerValue != minutes(forWords: values[0].integerValue ?? -1) {
                        problems.append(MigrationProblem(entity: "Note", message: "row \(key): \(values[1])"))
                    }
                }
                return problems
            },
        ])

    static let w5ToW6 = MigrationStage.custom(
        "languages", from: w5, to: w6,
        transforms: [
            EntityTransform(entity: "Note", reads: ["body"], writes: ["language"], batchSize: 3) { row in
                try row.set("language", .string(language(of: row.source("body").stringValue ?? "")))
            },
        ])

    static func stages(minutes: MigrationStage = w3ToW4, languages: MigrationStage = w5ToW6) -> [MigrationStage] {
        [minutes, .lightweight(from: w4, to: w5), languages]
    }

    static func plan() throws -> MigrationPlan {
        try MigrationPlan(
            schemas: [MigrationModel.v1, MigrationModel.v2, MigrationModel.v3, w4, w5, w6],
            stages: [.lightweight(from: MigrationModel.v1, to: MigrationModel.v2), MigrationModel.v2ToV3] + stages())
    }

    /// Expects every note of the store at `url` (of schema w6) to hold the values both custom
    /// stages give it, and its text unchanged.
    static func expectTransformed(_ url: URL) throws {
        let container = try PersistentContainer(schema: w6, store: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let notes = try Array(context.fetch(FetchRequest<ManagedObject>(entityName: "Note")))
            #expect(notes.count == MigrationModel.notes.count)
            for note in MigrationModel.notes {
                let object = try #require(try notes.first { try $0.value(forKey: "heading") as? String == note.title }, "\(note.title)")
                #expect(try object.value(forKey: "body") as? String == note.body)
                let words = Int64(note.body.split(whereSeparator: \.isWhitespace).count)
                #expect(try object.value(forKey: "wordCount") as? Int64 == words)
                #expect(try object.value(forKey: "readingMinutes") as? Int64 == minutes(forWords: words), "\(note.title)")
                #expect(try object.value(forKey: "language") as? String == language(of: note.body), "\(note.title)")
            }
        }
    }
}

/// The row totals each stage reported.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [MigrationProgress] = []

    func record(_ progress: MigrationProgress) { lock.withLock { values.append(progress) } }

    /// The distinct totals above one unit that stage `stage` reported (rows of its passes).
    func rowTotals(ofStage stage: Int) -> [Int] {
        lock.withLock {
            var totals: [Int] = []
            for value in values {
                guard case .migrating(let number, _, _) = value.phase, number == stage, value.total > 1,
                      !totals.contains(Int(value.total)) else { continue }
                totals.append(Int(value.total))
            }
            return totals
        }
    }
}
