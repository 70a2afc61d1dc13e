import CSQLite
import Foundation
import Synchronization
@testable import ObjectGraph
import Testing
import QuireTestSupport

/// Staged migrations on real store files: lightweight and custom stages, refusals, preflight,
/// locks, interruption and resumption, validation, backups.
@Suite struct MigrationTests {
    /// A v1 store in a temporary folder, and its bytes as written.
    private func v1Store() throws -> (TemporaryFolder, URL, Data) {
        let directory = try TemporaryFolder()
        let url = directory.file("notes.store")
        try MigrationModel.writeV1Store(at: url)
        return (directory, url, try Data(contentsOf: url))
    }

    private func fetchAll(_ entity: String, in context: ManagedObjectContext) throws -> [ManagedObject] {
        try Array(context.fetch(FetchRequest<ManagedObject>(entityName: entity)))
    }

    @Test func everyStageRunsAndKeepsEveryValue() throws {
        let (directory, url, original) = try v1Store()
        let migrator = StoreMigrator(plan: try MigrationModel.plan(), store: url)
        #expect(try migrator.status() == .needed(from: SchemaVersion(version: 1, checksum: MigrationModel.v1.checksum), stages: 2))
        let phases = PhaseLog()
        let outcome = try migrator.runNow { phases.record($0) }
        #expect(outcome.stagesRun == 2 && !outcome.resumed)
        #expect(outcome.to.checksum == MigrationModel.v3.checksum)
        #expect(try migrator.status() == .upToDate)
        #expect(phases.fractions == phases.fractions.sorted(), "progress never goes back")
        #expect(phases.fractions.last == 1)
        #expect(phases.phases.contains(.validating) && phases.phases.contains(.committing))

        // The backup is the original file, byte for byte, and the workspace is gone.
        let backup = try #require(outcome.backup)
        #expect(try Data(contentsOf: backup) == original)
        #expect(!FileManager.default.fileExists(atPath: migrator.workspace.path))

        let container = try PersistentContainer(schema: MigrationModel.v3, store: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let notes = try fetchAll("Note", in: context)
            #expect(notes.count == MigrationModel.notes.count)
            for note in MigrationModel.notes {
                let object = try #require(try notes.first { try $0.value(forKey: "heading") as? String == note.title }, "\(note.title)")
                #expect(try object.value(forKey: "body") as? String == note.body)
                #expect(try object.value(forKey: "rating") as? Int64 == note.rating.map { Int64($0.count) })
                #expect(try object.value(forKey: "wordCount") as? Int64 == Int64(note.body.split(whereSeparator: \.isWhitespace).count))
                #expect(try object.value(forKey: "subtitle") == nil)
                #expect(try object.value(forKey: "priority") as? Int64 == 3)
                #expect(try object.value(forKey: "archived") as? Bool == false)
                let notebook = try object.value(forKey: "notebook") as? ManagedObject
                #expect(try notebook?.value(forKey: "name") as? String == note.notebook)
                let labels = try #require(try object.value(forKey: "labels") as? Set<ManagedObject>)
                #expect(Set(try labels.map { try $0.value(forKey: "name") as! String }) == Set(note.tags))
            }
            #expect(try fetchAll("Label", in: context).count == 4)
            // The full-text index follows the renamed attribute.
            var search = FetchRequest<ManagedObject>(entityName: "Note")
            search.predicate = .matches(FullTextQuery("recette"))
            let found = try context.fetch(search)
            #expect(try found.map { try $0.value(forKey: "heading") as? String } == ["Café au lait"])
            // New rows get keys after every old one.
            let reminder = try context.insertObject(entityName: "Reminder")
            try reminder.setValue(Date(), forKey: "due")
            try reminder.setValue(notes[0], forKey: "note")
            let label = try context.insertObject(entityName: "Label")
            try label.setValue("new", forKey: "name")
            try context.save()
            #expect(label.objectID.uriRepresentation.lastPathComponent == "p5")
        }
        try container.persistentStore.checkFullTextIndexes()
        // The index was filled with a larger buffer, a setting the store does not keep.
        let config = try SQLiteConnection(path: url.path, readOnly: true, create: false)
        #expect(try config.scalar("SELECT count(*) FROM og_fts_Note_config WHERE k = 'hashsize'")?.integerValue == 0)
        withExtendedLifetime(directory) {}
    }

    @Test func changesThatCannotBeInferredNameTheCustomStageNeeded() throws {
        var changed = MigrationModel.v2
        changed.version = 3
        let note = changed.entities.firstIndex { $0.name == "Note" }!
        changed.entities[note].attributes.append(AttributeDescription("wordCount", .integer64))
        changed.entities[note].attributes[2].type = .integer64
        changed.entities[note].attributes[1].isUnique = true
        do {
            _ = try MigrationPlan(schemas: [MigrationModel.v2, changed], stages: [.lightweight(from: MigrationModel.v2, to: changed)])
            Issue.record("the plan was accepted")
        } catch MigrationError.customStageRequired(_, let problems) {
            #expect(Set(problems.compactMap(\.property)) == ["wordCount", "rating", "body"])
            #expect(problems.allSatisfy { $0.entity == "Note" })
        }
        #expect(throws: MigrationError.self) {
            try MigrationPlan(schemas: [MigrationModel.v1, MigrationModel.v3], stages: [.lightweight(from: MigrationModel.v2, to: MigrationModel.v3)])
        }
    }

    @Test func aStoreOfANewerOrUnknownSchemaIsNeverTouched() throws {
        let (directory, url, original) = try v1Store()
        let plan = MigrationPlan(current: MigrationModel.v2)
        let migrator = StoreMigrator(plan: plan, store: url)
        guard case .unknownSchema(let found, _) = try migrator.status() else {
            Issue.record("the status is \(try migrator.status())")
            return
        }
        #expect(found.checksum == MigrationModel.v1.checksum)
        #expect(throws: MigrationError.self) { try migrator.runNow() }
        #expect(try Data(contentsOf: url) == original)
        #expect(try files(in: directory) == ["notes.store"])
    }

    /// The folder's files, without the store's `-wal` and `-shm` (which reading a store in WAL mode creates).
    private func files(in directory: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted()
    }

    @Test func withoutEnoughFreeSpaceNothingIsCreated() throws {
        let (directory, url, original) = try v1Store()
        let before = try files(in: directory)
        let migrator = StoreMigrator(
            plan: try MigrationModel.plan(), store: url, options: MigrationOptions(availableSpace: { _ in 1_000_000 }))
        do {
            _ = try migrator.runNow()
            Issue.record("the migration ran")
        } catch MigrationError.insufficientSpace(_, let required, let available) {
            #expect(available == 1_000_000)
            #expect(required > Int64(original.count))
        }
        #expect(try Data(contentsOf: url) == original)
        #expect(try files(in: directory) == before)
    }

    @Test func aStoreOpenElsewhereWaitsUntilItIsClosed() throws {
        let (directory, url, original) = try v1Store()
        let migrator = StoreMigrator(plan: try MigrationModel.plan(), store: url)
        do {
            let open = try PersistentContainer(schema: MigrationModel.v1, store: .file(url))
            let context = open.newBackgroundContext()
            try context.performAndWait { _ = try fetchAll("Note", in: context) }
            #expect(throws: MigrationError.storeInUse(path: url.path)) { try migrator.runNow() }
        }
        #expect(try Data(contentsOf: url) == original)
        #expect(!FileManager.default.fileExists(atPath: migrator.workspace.path))
        #expect(try migrator.runNow().stagesRun == 2)
        withExtendedLifetime(directory) {}
    }

    /// Two openers of one old store (the app and `quire` at once): the second looked before the
    /// first migrated and takes the lock after it finished. It must find the store migrated, not
    /// run the stages again over the result ("duplicate column name").
    @Test func anOpenerThatLookedBeforeAnotherMigratedFindsTheStoreUpToDate() throws {
        let (directory, url, _) = try v1Store()
        let first = StoreMigrator(plan: try MigrationModel.plan(), store: url)
        let firstOutcome = Mutex<Result<MigrationOutcome, any Error>?>(nil)
        // The free-space question comes between the second opener's look and its work on the store:
        // the first opener migrates right there.
        let second = StoreMigrator(plan: try MigrationModel.plan(), store: url, options: MigrationOptions(availableSpace: { folder in
            if firstOutcome.withLock({ $0 == nil }) {
                let outcome = Result { try first.runNow() }
                firstOutcome.withLock { $0 = outcome }
            }
            return try StoreFiles.availableSpace(at: folder)
        }))
        let secondOutcome = try second.runNow()
        // Whichever opener holds the lock migrates; the other is told the store is in use.
        var stagesRun = secondOutcome.stagesRun
        switch firstOutcome.withLock({ $0 }) {
        case .success(let outcome)?: stagesRun += outcome.stagesRun
        case .failure(let error)?: #expect(error as? MigrationError == .storeInUse(path: url.path))
        case nil: Issue.record("the first opener never ran")
        }
        #expect(stagesRun == 2, "the stages ran once in all")
        #expect(try second.status() == .upToDate)
        let container = try PersistentContainer(schema: MigrationModel.v3, store: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counts = try fetchAll("Note", in: context).map { try $0.value(forKey: "wordCount") as? Int64 }
            #expect(!counts.isEmpty && counts.allSatisfy { $0 != nil })
        }
        withExtendedLifetime(directory) {}
    }

    @Test func aKilledMigrationResumesFromItsCheckpoint() throws {
        let (directory, url, original) = try v1Store()
        let migrator = StoreMigrator(plan: try MigrationModel.plan(), store: url)
        // Killed after the second batch of the custom stage: the copy holds stage 2's checkpoint.
        let status = try MigrationProcess.run(store: url, killAt: "stage.2.transform.1.batch.2")
        #expect(status == SIGKILL)
        #expect(try Data(contentsOf: url) == original)
        guard case .interrupted(_, .migrating(stage: 1, step: .transform(transform: 0, let checkpoint))) = try migrator.status() else {
            Issue.record("status: \(try migrator.status())")
            return
        }
        #expect(checkpoint == 6)
        let outcome = try migrator.runNow()
        #expect(outcome.resumed && outcome.stagesRun == 2)
        let container = try PersistentContainer(schema: MigrationModel.v3, store: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counts = try fetchAll("Note", in: context).map { try $0.value(forKey: "wordCount") as? Int64 }
            #expect(counts.allSatisfy { $0 != nil })
        }
        withExtendedLifetime(directory) {}
    }

    @Test func aWriteToTheOriginalMeanwhileSendsTheMigrationBackToAFreshCopy() throws {
        let (directory, url, _) = try v1Store()
        let migrator = StoreMigrator(plan: try MigrationModel.plan(), store: url)
        #expect(try MigrationProcess.run(store: url, killAt: "validated") == SIGKILL)
        guard case .interrupted(_, .committed) = try migrator.status() else {
            Issue.record("status: \(try migrator.status())")
            return
        }
        // An old program adds a note to the original after it was copied.
        do {
            let container = try PersistentContainer(schema: MigrationModel.v1, store: .file(url))
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let note = try context.insertObject(entityName: "Note")
                try note.setValue("Written meanwhile", forKey: "title")
                try note.setValue(Date(), forKey: "created")
                try context.save()
            }
        }
        #expect(try migrator.status() == .needed(from: SchemaVersion(version: 1, checksum: MigrationModel.v1.checksum), stages: 2))
        #expect(try !migrator.runNow().resumed)
        let container = try PersistentContainer(schema: MigrationModel.v3, store: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let headings = try fetchAll("Note", in: context).map { try $0.value(forKey: "heading") as? String }
            #expect(headings.contains("Written meanwhile"))
        }
        withExtendedLifetime(directory) {}
    }

    @Test func validationFindsValuesNoStageMeantToChange() throws {
        let (directory, url, _) = try v1Store()
        let migrator = StoreMigrator(plan: try MigrationModel.plan(), store: url)
        #expect(try MigrationProcess.run(store: url, killAt: "stage.2.checked") == SIGKILL)
        let working = migrator.workspace.appendingPathComponent("working.sqlite").path
        let plan = try MigrationModel.plan()
        do {
            let copy = try WorkingCopy(path: working)
            try copy.connection.execute("UPDATE Note SET body = 'tampered' WHERE _pk = 2")
            try copy.connection.execute("DELETE FROM og_join_Label_notes WHERE (source, target) IN (SELECT source, target FROM og_join_Label_notes LIMIT 1)")
            try copy.connection.execute("UPDATE Note SET wordCount = NULL WHERE _pk = 3")
            let validator = MigrationValidator(copy: copy, stages: plan.stages, originalPath: url.path)
            do {
                try validator.validate { _ in }
                Issue.record("validation passed")
            } catch MigrationError.validationFailed(_, let problems) {
                let messages = problems.map(\.description)
                #expect(messages.contains { $0.hasPrefix("Note: 1 rows lost or changed") }, "\(messages)")
                #expect(messages.contains { $0.contains("relationship rows differ") }, "\(messages)")
                #expect(messages.contains { $0.contains("wordCount: rows without the required value") }, "\(messages)")
            }
        }
        withExtendedLifetime(directory) {}
    }

    /// A stage that only adds does not look for references to missing rows itself (it cannot
    /// make one); one the original already holds still fails the upgrade, in validation.
    @Test func aReferenceToAMissingRowInTheOriginalStillFailsAnUpgradeThatOnlyAdds() throws {
        let (directory, url, _) = try v1Store()
        do {
            let store = try SQLiteConnection(path: url.path, readOnly: false, create: false)
            try store.execute("PRAGMA foreign_keys = OFF")
            try store.execute("UPDATE Note SET notebook = 999 WHERE _pk = 1")
            try store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let original = try Data(contentsOf: url)
        var v2 = MigrationModel.v1
        v2.version = 2
        let note = try #require(v2.entities.firstIndex { $0.name == "Note" })
        v2.entities[note].attributes.append(AttributeDescription("mood", .string, optional: true))
        let plan = try MigrationPlan(schemas: [MigrationModel.v1, v2], stages: [.lightweight(from: MigrationModel.v1, to: v2)])
        let migrator = StoreMigrator(plan: plan, store: url)
        do {
            _ = try migrator.runNow()
            Issue.record("the upgrade passed")
        } catch MigrationError.validationFailed(_, let problems) {
            #expect(problems.map(\.description).contains { $0.contains("row 1 refers to a missing row of Notebook") }, "\(problems)")
        }
        #expect(try Data(contentsOf: url) == original)
        #expect(!FileManager.default.fileExists(atPath: migrator.workspace.path))
        withExtendedLifetime(directory) {}
    }

    @Test func aCustomStageWhoseCheckFailsLeavesTheOriginal() throws {
        let (directory, url, original) = try v1Store()
        var stage = MigrationModel.v2ToV3
        stage.checks = [MigrationCheck("always fails") { _ in [MigrationProblem(entity: "Note", message: "not today")] }]
        let plan = try MigrationPlan(
            schemas: [MigrationModel.v1, MigrationModel.v2, MigrationModel.v3],
            stages: [.lightweight(from: MigrationModel.v1, to: MigrationModel.v2), stage])
        let migrator = StoreMigrator(plan: plan, store: url)
        #expect(throws: MigrationError.validationFailed(
            stage: stage.label, problems: [MigrationProblem(entity: "Note", message: "not today")])) { try migrator.runNow() }
        #expect(try Data(contentsOf: url) == original)
        #expect(!FileManager.default.fileExists(atPath: migrator.workspace.path))
        withExtendedLifetime(directory) {}
    }

    @Test func backupsGoAfterAWeekOfUseAndTwoWeeksOfAge() throws {
        let (directory, url, _) = try v1Store()
        let migrator = StoreMigrator(plan: try MigrationModel.plan(), store: url)
        let outcome = try migrator.runNow()
        let backup = try #require(outcome.backup)
        let backups = StoreBackups(folder: migrator.backupFolder)
        let entry = try #require(try backups.entries().first)
        #expect(entry.fromVersion == 1 && entry.toVersion == 3)
        let metadata = try #require(try PersistentStore.metadata(at: url))
        #expect(entry.storeIdentifier == metadata.storeIdentifier)
        let start = entry.created
        // Six days of use over a month: kept; opening twice a day counts once.
        for day in 0..<6 {
            for _ in 0..<2 { #expect(try backups.recordUse(of: metadata, on: start.addingTimeInterval(Double(day * 5) * 86_400)).isEmpty) }
        }
        #expect(FileManager.default.fileExists(atPath: backup.path))
        // The seventh day of use, 30 days on: removed.
        #expect(try backups.recordUse(of: metadata, on: start.addingTimeInterval(30 * 86_400)) == [backup])
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        #expect(try backups.entries().isEmpty)
        withExtendedLifetime(directory) {}
    }
}

/// Progress values a migration reported.
private final class PhaseLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [MigrationProgress] = []

    func record(_ progress: MigrationProgress) { lock.withLock { values.append(progress) } }
    var fractions: [Double] { lock.withLock { values.map(\.fractionCompleted) } }
    var phases: [MigrationProgress.Phase] { lock.withLock { values.map(\.phase) } }
}

/// A migration in a process of its own (the test binary run again), killed at a named point.
enum MigrationProcess {
    static let storeVariable = "OBJECTGRAPH_TEST_MIGRATION_STORE"
    static let planVariable = "OBJECTGRAPH_TEST_MIGRATION_PLAN"

    /// The plans the child process can run.
    enum Plan: String {
        /// ``MigrationModel/plan()``.
        case notes
        /// ``CarriedModel/plan()``: a stage's transforms run in a later stage's pass.
        case carried

        func make() throws -> MigrationPlan {
            switch self {
            case .notes: return try MigrationModel.plan()
            case .carried: return try CarriedModel.plan()
            }
        }
    }

    /// Runs the migration of `store` through `plan` with `OBJECTGRAPH_MIGRATION_KILL_AT=killAt`;
    /// returns the signal that ended it (0 when it exited by itself).
    static func run(store: URL, killAt: String, plan: Plan = .notes) throws -> Int32 {
        let process = TestBinary.process(
            filter: "MigrationProcessEntry",
            environment: [storeVariable: store.path, planVariable: plan.rawValue, "OBJECTGRAPH_MIGRATION_KILL_AT": killAt])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? process.terminationStatus : 0
    }
}

@Suite struct MigrationProcessEntry {
    @Test(.enabled(
        if: ProcessInfo.processInfo.environment[MigrationProcess.storeVariable] != nil,
        "entry point of the child process that the migration tests kill"))
    func migrate() throws {
        let url = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[MigrationProcess.storeVariable]))
        let plan = MigrationProcess.Plan(rawValue: ProcessInfo.processInfo.environment[MigrationProcess.planVariable] ?? "") ?? .notes
        _ = try StoreMigrator(plan: try plan.make(), store: url).runNow()
    }
}
