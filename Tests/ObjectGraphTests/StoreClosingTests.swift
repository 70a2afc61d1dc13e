import CSQLite
import Foundation
@testable import ObjectGraph
import Synchronization
import Testing
import QuireTestSupport

/// A closed store is one file: closing (and checkpointing) moves every commit out of the
/// write-ahead log into the store file, so that the file alone, copied anywhere, holds everything.
@Suite struct StoreClosingTests {
    /// The titles of the articles in the store file alone: copied without its log into a folder
    /// of its own and read there as an immutable file (no log, no locks).
    private func titlesInFileAlone(_ url: URL) throws -> [String] {
        let elsewhere = try TemporaryFolder()
        let copy = elsewhere.file("alone.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        var handle: OpaquePointer?
        let uri = "file:\(copy.path)?immutable=1"
        guard sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK, let handle else {
            throw StoreError(kind: .cannotOpen, message: "cannot open the copy", path: copy.path)
        }
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT title FROM Article ORDER BY title", -1, &statement, nil) == SQLITE_OK else {
            throw StoreError(kind: .corrupt, message: String(cString: sqlite3_errmsg(handle)), path: copy.path)
        }
        defer { sqlite3_finalize(statement) }
        var titles: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { titles.append(String(cString: sqlite3_column_text(statement, 0))) }
        return titles
    }

    private func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }

    private func save(_ titles: [String], in container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for title in titles { Article(context: context).title = title }
            try context.save()
        }
    }

    @Test func closingLeavesOneFileThatHoldsEverything() throws {
        let stack = try TestStack()
        let url = stack.directory.file()
        let titles = (1...200).map { String(format: "Article %03d", $0) }
        try save(titles, in: stack.container)
        // What the test is about: the commits sit in the log, and the file alone lacks them (here
        // even its tables).
        #expect((size(url.path + "-wal") ?? 0) > 0)
        #expect(((try? titlesInFileAlone(url)) ?? []).isEmpty)

        stack.container.close()
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-shm"))
        #expect(try titlesInFileAlone(url) == titles)
        // And it opens again as it was.
        let reopened = try PersistentContainer(schema: TestModel.schema, store: .file(url))
        let context = reopened.newBackgroundContext()
        let count = try context.performAndWait { try context.count(for: FetchRequest<Article>()) }
        #expect(count == titles.count)
    }

    @Test func closingWaitsForAReadOnItsOwnConnectionAndStillLeavesOneFile() throws {
        let directory = try TemporaryFolder()
        let url = directory.file()
        // A read that lasts longer than the store waits for a busy file: SQLite's own wait in the
        // closing checkpoint would give up, so only the store's wait for the read keeps one file.
        var description = StoreDescription.file(url)
        description.busyTimeout = 0.1
        let container = try PersistentContainer(schema: TestModel.schema, store: description)
        let titles = (1...50).map { String(format: "Article %03d", $0) }
        try save(titles, in: container)
        let store = container.persistentStore
        let reading = DispatchSemaphore(value: 0)
        let finishReading = DispatchSemaphore(value: 0)
        let readError = Mutex<(any Error)?>(nil)
        let closedToOneFile = Mutex<Bool?>(nil)
        // Dispatch's threads, not tasks: the read and the close each block their thread, and two
        // blocked tasks would hold every thread of the cooperative pool on a two-core machine.
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            do {
                try store.readOnOwnConnection { reader in
                    // A read transaction, as a fetch stepping through its rows holds one.
                    try reader.execute("BEGIN")
                    _ = try reader.scalar("SELECT count(*) FROM Article")
                    reading.signal()
                    finishReading.wait()
                    try reader.execute("COMMIT")
                }
            } catch {
                readError.withLock { $0 = error }
            }
        }
        reading.wait()
        DispatchQueue.global().async(group: done) {
            store.close()
            let oneFile = !FileManager.default.fileExists(atPath: url.path + "-wal")
            closedToOneFile.withLock { $0 = oneFile }
        }
        // The read holds its connection (and its snapshot) until it is let go; closing meanwhile
        // would leave the log behind, with the commits in it.
        Thread.sleep(forTimeInterval: 0.4)
        #expect(closedToOneFile.withLock { $0 } == nil)
        finishReading.signal()
        done.wait()
        #expect(readError.withLock { $0 } == nil)
        #expect(closedToOneFile.withLock { $0 } == true)
        #expect(try titlesInFileAlone(url) == titles)
    }

    @Test func aClosedStoreRefusesReadsAndWrites() throws {
        let stack = try TestStack()
        try save(["Before closing"], in: stack.container)
        let context = stack.container.newBackgroundContext()
        stack.container.close()
        stack.container.close()
        context.performAndWait {
            #expect(throws: ObjectGraphError.storeClosed(path: stack.directory.file().path)) {
                try context.fetch(FetchRequest<Article>())
            }
            Article(context: context).title = "After closing"
            #expect(throws: ObjectGraphError.storeClosed(path: stack.directory.file().path)) { try context.save() }
        }
        #expect(throws: ObjectGraphError.storeClosed(path: stack.directory.file().path)) {
            try stack.container.persistentStore.checkpoint()
        }
        #expect(try titlesInFileAlone(stack.directory.file()) == ["Before closing"])
    }

    @Test func closingBesideAnotherConnectionKeepsItsLogAndLosesNothing() throws {
        let stack = try TestStack()
        let url = stack.directory.file()
        // Another program with the same file open.
        let other = try PersistentContainer(schema: TestModel.schema, store: .file(url))
        try save(["Mine"], in: stack.container)
        stack.container.close()
        // The log stays for the other connection, emptied; the file alone holds the commit.
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(size(url.path + "-wal") == 0)
        #expect(try titlesInFileAlone(url) == ["Mine"])

        try save(["Theirs"], in: other)
        #expect(try titlesInFileAlone(url) == ["Mine"])
        other.close()
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(try titlesInFileAlone(url) == ["Mine", "Theirs"])
    }

    @Test func aCheckpointEmptiesTheLogOfAnOpenStore() throws {
        let stack = try TestStack()
        let url = stack.directory.file()
        try save(["Kept open"], in: stack.container)
        #expect(try stack.container.persistentStore.checkpoint())
        #expect(size(url.path + "-wal") == 0)
        #expect(try titlesInFileAlone(url) == ["Kept open"])
        try save(["Later"], in: stack.container)
        #expect(try titlesInFileAlone(url) == ["Kept open"])
    }

    @Test func anIdleStoreCheckpointsAfterAQuietSpell() async throws {
        let stack = try TestStack()
        let url = stack.directory.file()
        stack.container.persistentStore.checkpointWhenIdle(after: .milliseconds(100))
        for round in 1...3 {
            try save(["Round \(round)"], in: stack.container)
            #expect((size(url.path + "-wal") ?? 0) > 0)
            #expect(await eventually { size(url.path + "-wal") == 0 })
            #expect(try titlesInFileAlone(url) == (1...round).map { "Round \($0)" })
        }
        stack.container.close()
    }

    @Test func aReadOnlyStoreClosesWithoutWriting() throws {
        let stack = try TestStack()
        let url = stack.directory.file()
        try save(["Written"], in: stack.container)
        stack.container.close()
        let before = try Data(contentsOf: url)
        var description = StoreDescription.file(url)
        description.isReadOnly = true
        let reader = try PersistentContainer(schema: TestModel.schema, store: description)
        #expect(try reader.persistentStore.checkpoint() == false)
        reader.close()
        #expect(try Data(contentsOf: url) == before)
    }
}
