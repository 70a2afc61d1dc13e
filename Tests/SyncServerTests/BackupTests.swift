import Foundation
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Synchronization
import Testing

/// `backup` while serving, `restore` of SQLite and of a PostgreSQL dump, through the executable
/// against real server processes.
@Suite(.serialized) struct BackupTests {
    func run(_ words: [String]) throws -> ProgramRun { try ServerProcess.run(words) }

    @Test func aBackupTakenWhileWritesGoOnIsConsistentAndRestoresWithANewFeedEpoch() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        let storage = ["--data", directory.path]
        let token = try run(["account", "add", "alice"] + storage).output.trimmingCharacters(in: .whitespacesAndNewlines)
        var server = try ServerProcess(serve: storage + ["--rate-limit", "off"], logFile: database.folder.appendingPathComponent("a.log"))

        // Writers keep going while the backup is taken.
        let writers = WriterPool()
        writers.start(count: 4, port: server.port, token: token)
        writers.waitForAcknowledged(40)
        let backup = database.folder.appendingPathComponent("backup.sqlite3")
        let backedUp = try run(["backup", "--out", backup.path] + storage)
        #expect(backedUp.status == 0, "\(backedUp.error)")
        let mode = try FileManager.default.attributesOfItem(atPath: backup.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try run(["backup", "--out", backup.path] + storage).error.contains("never overwrites"))
        writers.waitForAcknowledged(writers.acknowledgedWrites.count + 40)
        _ = server.terminate()
        writers.waitUntilStopped()

        // A client that followed the feed to the end holds a cursor the backup never reached.
        let acknowledged = writers.acknowledgedWrites
        server = try ServerProcess(serve: storage, logFile: database.folder.appendingPathComponent("b.log"))
        let before = try LoopbackClient(port: server.port, token: token).allChanges()
        let lastCursor = try #require(before.last?.cursor)
        let restoring = try run(["restore", "--from", backup.path] + storage)
        #expect(restoring.status == 1 && restoring.error.contains("another quire-server is serving"))
        _ = server.terminate()

        let restored = try run(["restore", "--from", backup.path] + storage)
        #expect(restored.status == 0, "\(restored.error)")
        #expect(restored.output.contains("kept as") && restored.output.contains("for 1 accounts"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".replaced-") }
        #expect(kept.contains { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })

        server = try ServerProcess(serve: storage, logFile: database.folder.appendingPathComponent("c.log"))
        defer { _ = server.terminate() }
        let client = LoopbackClient(port: server.port, token: token)
        // Every cursor of the old feed, before or after the backup, now asks for a resync.
        for cursor in [0, before[before.count / 3].cursor, lastCursor] {
            #expect(try client.changes(since: cursor).problem?.type == .resyncRequired, "cursor \(cursor)")
        }
        // The snapshot is a prefix of what was acknowledged: each writer's article at one of its
        // acknowledged steps, consistent with its revision, and the feed goes on from its cursor.
        let snapshot = try client.send("GET", SyncPath.articles + "?limit=1000").decode(ArticlesPage.self)
        #expect(!snapshot.articles.isEmpty && snapshot.cursor > lastCursor)
        for article in snapshot.articles {
            let write = acknowledged.first { $0.article == article.id && $0.title == article.content.title }
            #expect(write?.revision == article.revision, "\(article.id) \(article.content.title)")
        }
        #expect(try client.changes(since: snapshot.cursor).decode(ChangesPage.self).changes.isEmpty)
        let created = try client.create("after-restore", ArticlePayload(title: "New", body: ""))
        #expect(try #require(created.revision) > lastCursor)
        #expect(try client.changes(since: snapshot.cursor).decode(ChangesPage.self).changes.map(\.id) == ["after-restore"])
    }

    @Test func restoreRefusesWhatIsNotAnIntactBackup() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        let storage = ["--data", directory.path]
        _ = try run(["account", "add", "alice"] + storage)
        let backup = database.folder.appendingPathComponent("backup.sqlite3")
        #expect(try run(["backup", "--out", backup.path] + storage).status == 0)

        let damaged = database.folder.appendingPathComponent("damaged.sqlite3")
        var bytes = try Data(contentsOf: backup)
        for index in stride(from: 4096, to: min(bytes.count, 8192), by: 7) { bytes[index] ^= 0x5a }
        try bytes.write(to: damaged)
        let notOurs = database.folder.appendingPathComponent("other.sqlite3")
        _ = try SQLiteConnection(path: notOurs.path, pragmas: ["CREATE TABLE notes (text TEXT)"])
        for (file, reason) in [(damaged, "damaged"), (notOurs, "not a quire-server database"),
                               (database.folder.appendingPathComponent("missing"), "no such file")] {
            let refused = try run(["restore", "--from", file.path] + storage)
            #expect(refused.status == 1 && refused.error.contains(reason), "\(file.lastPathComponent): \(refused.error)")
        }
        // Nothing was moved aside by a refused restore.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".replaced-") })
        #expect(try run(["account", "list"] + storage).output.hasPrefix("alice\t"))
        #expect(try run(["restore"] + storage).status == 1)
    }

    @Test func aPostgresDumpRestoredWithPgRestoreStartsANewEpochToo() throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        guard case let .postgres(url) = database.location else { return }
        let schema = try #require(url.components(separatedBy: "search_path%3D").last)
        let storage = ["--postgres", url]
        let token = try run(["account", "add", "alice"] + storage).output.trimmingCharacters(in: .whitespacesAndNewlines)
        var server = try ServerProcess(serve: storage, logFile: database.folder.appendingPathComponent("a.log"))
        let client = LoopbackClient(port: server.port, token: token)
        #expect(try client.create("before", ArticlePayload(title: "Before", body: "")).status == 201)
        #expect(try run(["backup", "--out", database.folder.appendingPathComponent("x").path] + storage).error.contains("pg_dump"))

        let dump = database.folder.appendingPathComponent("dump")
        let base = try TestDatabase.postgresURL()
        try Self.tool("pg_dump", ["--format=custom", "--schema=\(schema)", "--file=\(dump.path)", "--dbname=\(base)"])
        #expect(try client.create("lost", ArticlePayload(title: "Lost", body: "")).status == 201)
        let cursor = try #require(try client.allChanges().last?.cursor)
        _ = server.terminate()

        // The disaster: the schema is gone; it comes back from the dump.
        _ = try PostgresConnection(url: base).execute("DROP SCHEMA \(schema) CASCADE")
        try Self.tool("pg_restore", ["--dbname=\(base)", dump.path])
        let epoch = try run(["restore"] + storage)
        #expect(epoch.status == 0 && epoch.output.contains("for 1 accounts"), "\(epoch.error)")
        #expect(try run(["restore", "--from", dump.path] + storage).error.contains("pg_restore"))

        server = try ServerProcess(serve: storage, logFile: database.folder.appendingPathComponent("b.log"))
        defer { _ = server.terminate() }
        let after = LoopbackClient(port: server.port, token: token)
        #expect(try after.changes(since: cursor).problem?.type == .resyncRequired)
        let snapshot = try after.send("GET", SyncPath.articles).decode(ArticlesPage.self)
        #expect(snapshot.articles.map(\.id) == ["before"] && snapshot.cursor > cursor)
    }

    /// Runs a PostgreSQL client tool and fails with its error output.
    static func tool(_ name: String, _ arguments: [String]) throws {
        let result = try ProgramRun(URL(fileURLWithPath: "/usr/bin/\(name)"), arguments)
        guard result.status == 0 else { throw ProcessError("\(name) failed: \(result.error)") }
    }
}
