import CSQLite
import Foundation
@testable import ObjectGraph
import Testing
import QuireTestSupport

/// Opening, reopening and refusing store files; every failure classified and none of them
/// touching the file.
@Suite struct StoreTests {
    /// Opens a store and expects a store error of `kind`, leaving the file's bytes as they were.
    private func expectOpenFails(
        _ url: URL, schema: Schema = TestModel.schema, as kind: StoreError.Kind,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try Data(contentsOf: url)
        do {
            _ = try PersistentContainer(schema: schema, store: .file(url))
            Issue.record("the store opened", sourceLocation: sourceLocation)
        } catch let error as StoreError {
            #expect(error.kind == kind, sourceLocation: sourceLocation)
            #expect(error.path == url.path, sourceLocation: sourceLocation)
        }
        #expect(try Data(contentsOf: url) == before, "a failed open changed the file", sourceLocation: sourceLocation)
    }

    @Test func createsAndReopens() throws {
        let directory = try TemporaryFolder()
        let first = try PersistentContainer(schema: TestModel.schema, store: .file(directory.file()))
        let metadata = first.persistentStore.metadata
        #expect(metadata.schema == SchemaVersion(version: 1, checksum: TestModel.schema.checksum))
        #expect(metadata.formatVersion == StoreMetadata.currentFormatVersion)
        let settings = try first.persistentStore.read { connection in
            try ["journal_mode", "synchronous", "foreign_keys"].map { try connection.scalar("PRAGMA \($0)") }
        }
        #expect(settings == [.string("wal"), .integer(2), .integer(1)])

        let reopened = try PersistentContainer(schema: TestModel.schema, store: .file(directory.file()))
        #expect(reopened.persistentStore.metadata == metadata)
        #expect(try PersistentStore.metadata(at: directory.file()) == metadata)
    }

    @Test func incompatibleSchemaCarriesBothVersions() throws {
        let directory = try TemporaryFolder()
        try TestStack(directory: directory).run { context in
            Article(context: context).title = "written with version 1"
            try context.save()
        }
        var changed = TestModel.schema
        changed.version = 2
        changed.entities[2].attributes.append(AttributeDescription("color", .string, optional: true))
        try expectOpenFails(directory.file(), schema: changed, as: .incompatibleSchema(
            store: SchemaVersion(version: 1, checksum: TestModel.schema.checksum),
            model: SchemaVersion(version: 2, checksum: changed.checksum)))
    }

    @Test func notADatabase() throws {
        let directory = try TemporaryFolder()
        try Data(String(repeating: "This is a draft, not a database.\n", count: 200).utf8).write(to: directory.file())
        try expectOpenFails(directory.file(), as: .notADatabase)
    }

    @Test func damagedSchemaPage() throws {
        let directory = try TemporaryFolder()
        try TestStack(directory: directory).run { context in
            Article(context: context).title = "soon damaged"
            try context.save()
        }
        let handle = try FileHandle(forUpdating: directory.file())
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 200))
        try handle.close()
        try expectOpenFails(directory.file(), as: .corrupt)
    }

    @Test func damagedDataPageFailsTheFetch() throws {
        let directory = try TemporaryFolder()
        try TestStack(directory: directory).run { context in
            for index in 0..<200 {
                let article = Article(context: context)
                article.title = "article \(index)"
                article.body = String(repeating: "long body text ", count: 40)
            }
            try context.save()
        }
        // Damage the root page of the Article table, which every scan of it reads first.
        var database: OpaquePointer?
        sqlite3_open(directory.file().path, &database)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(database, "SELECT rootpage FROM sqlite_master WHERE name = 'Article'", -1, &statement, nil)
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        let rootPage = sqlite3_column_int64(statement, 0)
        sqlite3_finalize(statement)
        sqlite3_prepare_v2(database, "PRAGMA page_size", -1, &statement, nil)
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        let pageSize = sqlite3_column_int64(statement, 0)
        sqlite3_finalize(statement)
        sqlite3_close(database)
        let handle = try FileHandle(forUpdating: directory.file())
        try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(pageSize)))
        try handle.close()

        let stack = try TestStack(directory: directory)
        try stack.run { context in
            do {
                _ = try context.fetch(FetchRequest<Article>()).map(\.body)
                Issue.record("a damaged page was read")
            } catch let error as StoreError {
                #expect(error.kind == .corrupt)
                #expect(error.statement?.hasPrefix("SELECT") == true)
                #expect(error.resultCode & 0xff == SQLITE_CORRUPT)
            }
        }
    }

    @Test func foreignDatabaseIsNotTouched() throws {
        let directory = try TemporaryFolder()
        var handle: OpaquePointer?
        sqlite3_open(directory.file().path, &handle)
        sqlite3_exec(handle, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')", nil, nil, nil)
        sqlite3_close(handle)
        try expectOpenFails(directory.file(), as: .notAnObjectGraphStore)
        #expect(throws: StoreError.self) { _ = try PersistentStore.metadata(at: directory.file()) }
    }

    @Test func busyWhileAnotherConnectionWrites() throws {
        let directory = try TemporaryFolder()
        _ = try TestStack(directory: directory)
        var description = StoreDescription.file(directory.file())
        description.busyTimeout = 0.05
        let container = try PersistentContainer(schema: TestModel.schema, store: description)

        var other: OpaquePointer?
        sqlite3_open(directory.file().path, &other)
        defer { sqlite3_close(other) }
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)

        let context = container.newBackgroundContext()
        try context.performAndWait {
            Article(context: context).title = "waiting"
            do {
                try context.save()
                Issue.record("saved while another connection held the write lock")
            } catch let error as StoreError {
                #expect(error.kind == .busy)
                #expect(error.statement == "BEGIN IMMEDIATE")
            }
            #expect(context.hasChanges)
            sqlite3_exec(other, "COMMIT", nil, nil, nil)
            try context.save()
        }
    }

    @Test func readOnlyStore() throws {
        let directory = try TemporaryFolder()
        try TestStack(directory: directory).run { context in
            Article(context: context).title = "saved"
            try context.save()
        }
        var description = StoreDescription.file(directory.file())
        description.isReadOnly = true
        let container = try PersistentContainer(schema: TestModel.schema, store: description)
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            #expect(try context.fetch(FetchRequest<Article>()).map(\.title) == ["saved"])
            Article(context: context).title = "refused"
            #expect(throws: StoreError.self) { try context.save() }
        }
    }

    @Test func diskFullFailsTheSaveWholly() throws {
        let stack = try TestStack()
        try stack.run { context in
            Article(context: context).title = "before"
            try context.save()
            // A size limit makes SQLite report SQLITE_FULL as a full disk would.
            try stack.container.persistentStore.read { connection in
                let pages = try connection.scalar("PRAGMA page_count")
                try connection.execute("PRAGMA max_page_count = \(pages!.swiftValue!)")
            }
            for index in 0..<50 {
                let article = Article(context: context)
                article.title = "big \(index)"
                article.body = String(repeating: "x", count: 4000)
            }
            do {
                try context.save()
                Issue.record("the save fitted")
            } catch let error as StoreError {
                #expect(error.kind == .noSpace)
            }
            #expect(context.insertedObjects.count == 50)
            var saved = FetchRequest<Article>()
            saved.includesPendingChanges = false
            let count = try context.count(for: saved)
            #expect(count == 1)
        }
    }

    @Test func permissionDenied() throws {
        let directory = try TemporaryFolder()
        _ = try TestStack(directory: directory)
        let file = directory.file()
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path) }
        // Root reads every file: the store is opened as an ordinary user opens it.
        let opened = OrdinaryUser.run { Result { try PersistentContainer(schema: TestModel.schema, store: .file(file)) } }
        #expect { _ = try opened.get() } throws: { ($0 as? StoreError)?.kind == .permissionDenied }
    }

    @Test func classification() {
        #expect(StoreError.Kind.classify(resultCode: SQLITE_BUSY) == .busy)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_LOCKED) == .busy)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_FULL) == .noSpace)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_IOERR | (4 << 8), systemError: ENOSPC) == .noSpace)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_CANTOPEN, systemError: EACCES) == .permissionDenied)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_CANTOPEN, systemError: EROFS) == .readOnly)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_CANTOPEN, systemError: ENOENT) == .cannotOpen)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_READONLY) == .readOnly)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_NOTADB) == .notADatabase)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_CORRUPT) == .corrupt)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_IOERR) == .ioError)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_CONSTRAINT) == .constraint)
        #expect(StoreError.Kind.classify(resultCode: SQLITE_MISUSE) == .other)
    }

    @Test func inMemoryStore() throws {
        let container = try PersistentContainer(schema: TestModel.schema, store: .inMemory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            Article(context: context).title = "fleeting"
            try context.save()
            #expect(try context.fetch(FetchRequest<Article>()).map(\.title) == ["fleeting"])
        }
        #expect(container.persistentStore.storeDescription.url == nil)
    }

    @Test func invalidSchemaTouchesNoFile() throws {
        let directory = try TemporaryFolder()
        let broken = Schema(version: 1, entities: [
            EntityDescription("Lonely", relationships: [.toOne("friend", "Nobody", inverse: "lonely")]),
        ])
        #expect(throws: SchemaError.self) { _ = try PersistentContainer(schema: broken, store: .file(directory.file())) }
        #expect(!FileManager.default.fileExists(atPath: directory.file().path))
    }
}
