import Foundation
import ObjectGraph
import Platform
import Testing
import QuireTestSupport

/// The kill sweep of values kept outside the database: a save and a collection in a child process,
/// killed with SIGKILL at each of their steps. After every kill the store holds the state before
/// or after the save, no row refers to a missing or damaged file, and collecting then removes
/// exactly the files no row refers to.
@Suite struct ExternalBinaryKillTests {
    /// Where the save is killed: its named points, just before its COMMIT, and not at all.
    static let savePoints = ["store.begun", "store.written", "sql.COMMIT", "none"]
    /// Where the collection is killed (three unreferenced files: two removals and the stray one).
    static let collectPoints = ["collect.listed", "collect.removed.1", "collect.removed.2", "none"]

    @Test(arguments: savePoints)
    func aSaveKilledAtAnyStepLeavesNoDanglingReference(at point: String) throws {
        let directory = try TemporaryFolder()
        let container = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        try Self.insert(["kept": 1], into: container)

        let killed = try ExternalBinaryProcess.run("save", store: directory.file(), killAt: point)
        #expect(killed == (point == "none" ? 0 : SIGKILL), "killed at \(point)")

        let reopened = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        let pictures = try Self.bytesByName(reopened)
        let before: [String: Data?] = ["kept": PictureModel.bytes(1)]
        let after: [String: Data?] = ["kept": PictureModel.bytes(43), "new": PictureModel.bytes(42)]
        #expect(pictures == before || pictures == after, "killed at \(point): \(pictures.keys.sorted())")
        if point == "none" { #expect(pictures == after) }
        if point == "store.begun" { #expect(pictures == before) }
        #expect(try reopened.persistentStore.externalBinaryProblems().isEmpty, "killed at \(point)")

        try reopened.persistentStore.collectExternalBinaries()
        #expect(try reopened.persistentStore.externalBinaryProblems().isEmpty, "killed at \(point)")
        #expect(try Self.files(reopened) == Set(try reopened.persistentStore.externalReferences().map(\.digest)), "killed at \(point)")
        #expect(try Self.bytesByName(reopened) == pictures, "killed at \(point)")
    }

    @Test(arguments: collectPoints)
    func aCollectionKilledAtAnyStepNeverRemovesAReferencedFile(at point: String) throws {
        let directory = try TemporaryFolder()
        let container = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        try Self.insert(["one": 1, "two": 2, "three": 3, "also three": 3], into: container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for picture in try context.fetch(FetchRequest<Picture>()) where ["one", "two"].contains(picture.name) {
                context.delete(picture)
            }
            try context.save()
        }
        let folder = try #require(container.persistentStore.externalBinaries)
        try Data("a save that never committed".utf8).write(to: URL(fileURLWithPath: folder.path(of: SHA256.hex(PictureModel.bytes(99)))))
        let kept: [String: Data?] = ["three": PictureModel.bytes(3), "also three": PictureModel.bytes(3)]

        let killed = try ExternalBinaryProcess.run("collect", store: directory.file(), killAt: point)
        #expect(killed == (point == "none" ? 0 : SIGKILL), "killed at \(point)")

        let reopened = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        #expect(try reopened.persistentStore.externalBinaryProblems().isEmpty, "killed at \(point)")
        #expect(try Self.bytesByName(reopened) == kept, "killed at \(point)")
        try reopened.persistentStore.collectExternalBinaries()
        #expect(try Self.files(reopened) == [SHA256.hex(PictureModel.bytes(3))], "killed at \(point)")
    }

    static func insert(_ seeds: [String: Int], into container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, seed) in seeds.sorted(by: { $0.key < $1.key }) {
                let picture = Picture(context: context)
                picture.name = name
                picture.bytes = PictureModel.bytes(seed)
            }
            try context.save()
        }
    }

    static func bytesByName(_ container: PersistentContainer) throws -> [String: Data?] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Picture>()).map { ($0.name, try $0.binaryValue(forKey: "bytes")) })
        }
    }

    static func files(_ container: PersistentContainer) throws -> Set<String> {
        let folder = try #require(container.persistentStore.externalBinaries)
        return Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    }
}

/// A save or a collection in a process of its own (the test binary run again), killed at a step.
enum ExternalBinaryProcess {
    static let roleVariable = "OBJECTGRAPH_TEST_EXTERNAL_ROLE"
    static let storeVariable = "OBJECTGRAPH_TEST_EXTERNAL_STORE"
    /// `sql.STATEMENT`: killed when the store starts a statement beginning with STATEMENT.
    static let statementVariable = "OBJECTGRAPH_TEST_EXTERNAL_KILL_BEFORE_SQL"

    /// Runs `role` on `store`, killed at `killAt`; returns the signal that ended it (0 when it exited by itself).
    static func run(_ role: String, store: URL, killAt: String) throws -> Int32 {
        var environment = [roleVariable: role, storeVariable: store.path]
        if killAt.hasPrefix("sql.") {
            environment[statementVariable] = String(killAt.dropFirst(4))
        } else if killAt != "none" {
            environment["OBJECTGRAPH_EXTERNAL_KILL_AT"] = killAt
        }
        let process = TestBinary.process(filter: "ExternalBinaryProcessEntry", environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { return process.terminationStatus }
        #expect(process.terminationStatus == 0, "the \(role) process failed")
        return 0
    }
}

@Suite struct ExternalBinaryProcessEntry {
    @Test(.enabled(
        if: ProcessInfo.processInfo.environment[ExternalBinaryProcess.roleVariable] != nil,
        "entry point of the child process that the external storage kill sweep kills"))
    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let url = URL(fileURLWithPath: try #require(environment[ExternalBinaryProcess.storeVariable]))
        let container = try PersistentContainer(schema: PictureModel.schema, store: .file(url))
        if let statement = environment[ExternalBinaryProcess.statementVariable] {
            container.persistentStore.setStatementTrace { sql in
                if sql.hasPrefix(statement) { kill(getpid(), SIGKILL) }
            }
        }
        switch environment[ExternalBinaryProcess.roleVariable] {
        case "save":
            // Replaces one value and adds another, in one save.
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let kept = try #require(try context.fetch(FetchRequest<Picture>()).first)
                kept.bytes = PictureModel.bytes(43)
                let new = Picture(context: context)
                new.name = "new"
                new.bytes = PictureModel.bytes(42)
                try context.save()
            }
        case "collect":
            try container.persistentStore.collectExternalBinaries()
        default:
            Issue.record("unknown role")
        }
    }
}
