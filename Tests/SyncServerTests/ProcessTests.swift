import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// The real `quire-server` executable: account verbs, `kill -9` under load, SIGTERM, and two
/// processes on one PostgreSQL database. (Serialized: each test starts server processes and
/// loads or kills them; one test at a time keeps their number bounded.)
@Suite(.serialized) struct ProcessTests {
    func storageArguments(_ database: TestDatabase) -> [String] {
        switch database.location {
        case let .sqlite(directory): return ["--data", directory.path]
        case let .postgres(url): return ["--postgres", url]
        }
    }

    func addAccount(_ name: String, _ database: TestDatabase) throws -> String {
        let result = try ServerProcess.run(["account", "add", name] + storageArguments(database))
        guard result.status == 0 else { throw ProcessError("account add failed: \(result.error)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func accountVerbsAddListAndRevokeBesideARunningServer() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let storage = storageArguments(database)
        let token = try addAccount("alice", database)
        #expect(token.hasPrefix("qtk_"))
        let duplicate = try ServerProcess.run(["account", "add", "alice"] + storage)
        #expect(duplicate.status == 1 && duplicate.error.contains("exists") && duplicate.output.isEmpty)
        #expect(try ServerProcess.run(["account", "add", "no spaces"] + storage).status == 2)
        #expect(try ServerProcess.run(["account", "frobnicate"] + storage).status == 2)

        let server = try ServerProcess(serve: storage, logFile: database.folder.appendingPathComponent("server.log"))
        let second = try ServerProcess.run(["serve", "--listen", "127.0.0.1:0"] + storage)
        #expect(second.status == 1 && second.error.contains("another quire-server"))
        #expect(try ServerProcess.run(["serve", "--listen", "nowhere"] + storage).status == 2)

        let client = LoopbackClient(port: server.port, token: token)
        #expect(try client.create("a", ArticlePayload(title: "T", body: "B")).status == 201)
        let bob = try addAccount("bob", database)
        #expect(try LoopbackClient(port: server.port, token: bob).send("GET", SyncPath.changes).status == 200)

        let listed = try ServerProcess.run(["account", "list"] + storage)
        #expect(listed.output.split(separator: "\n").map { $0.split(separator: "\t").prefix(2).joined(separator: " ") }
            == ["alice active", "bob active"])
        #expect(try ServerProcess.run(["account", "revoke", "alice"] + storage).status == 0)
        #expect(try ServerProcess.run(["account", "revoke", "alice"] + storage).status == 1)
        #expect(try ServerProcess.run(["account", "list"] + storage).output.contains("alice\trevoked"))
        #expect(try client.send("GET", SyncPath.changes).status == 401)

        #expect(server.terminate() == 0)
        #expect(!server.log.contains(token) && !server.log.contains(bob))
    }

    @Test(arguments: StorageKind.allCases)
    func killDashNineUnderLoadLosesNoAcknowledgedWrite(_ kind: StorageKind) throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let token = try addAccount("writer", database)
        let arguments = storageArguments(database) + ["--rate-limit", "off", "--operation-lease", "1s"]
        let first = try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("first.log"))
        let writers = WriterPool()
        writers.start(count: 8, port: first.port, token: token)
        writers.waitForAcknowledged(400)
        first.crash()
        writers.waitUntilStopped()
        #expect(writers.failureMessages.isEmpty, "\(writers.failureMessages.prefix(3))")
        let acknowledged = writers.acknowledgedWrites
        #expect(acknowledged.count >= 400)

        let second = try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("second.log"))
        let client = LoopbackClient(port: second.port, token: token)
        let feed = try client.allChanges()
        let committed = Set(feed.compactMap { change in change.article.map { "\($0.id) \($0.revision) \($0.content.title)" } })
        let missing = acknowledged.filter { !committed.contains("\($0.article) \($0.revision!) \($0.title)") }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(3))")

        // A write cut off by the crash, resent with its key, is applied exactly once.
        print("kill -9 on \(kind): \(acknowledged.count) acknowledged, \(writers.interruptedWrites.count) in flight, "
              + "\(writers.interruptedWrites.filter { write in feed.contains { $0.article?.content.title == write.title } }.count) of them committed")
        for write in writers.interruptedWrites {
            var response = try write.base.map { try client.update(write.article, write.content, base: $0, key: write.key) }
                ?? client.create(write.article, write.content, key: write.key)
            for _ in 0..<50 where response.status == 409 {
                Thread.sleep(forTimeInterval: 0.1)
                response = try write.base.map { try client.update(write.article, write.content, base: $0, key: write.key) }
                    ?? client.create(write.article, write.content, key: write.key)
            }
            #expect((200..<300).contains(response.status), "\(write.article): \(response.status) \(response.text)")
            let copies = try client.allChanges().filter { $0.article?.content.title == write.title }
            #expect(copies.count == 1)
        }
        #expect(second.terminate() == 0)
        if kind == .sqlite {
            let storage = try database.open()
            defer { storage.close() }
            let check = try #require(storage as? any SQLBackedStorage).withConnection(for: .reader) { connection in
                try connection.first("PRAGMA integrity_check", []) { $0.text(0) }
            }
            #expect(check == "ok")
        }
    }

    @Test func sigtermUnderLoadFinishesCleanlyAndKeepsEveryAcknowledgedWrite() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let token = try addAccount("writer", database)
        let arguments = storageArguments(database) + ["--rate-limit", "off"]
        let first = try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("first.log"))
        let writers = WriterPool()
        writers.start(count: 8, port: first.port, token: token)
        writers.waitForAcknowledged(200)
        #expect(first.terminate() == 0)
        writers.waitUntilStopped()
        #expect(first.log.contains("stopped"))
        #expect(writers.failureMessages.allSatisfy { $0.contains(" 503 ") }, "\(writers.failureMessages.prefix(3))")

        let second = try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("second.log"))
        defer { _ = second.terminate() }
        let titles = Set(try LoopbackClient(port: second.port, token: token).allChanges().compactMap { $0.article?.content.title })
        #expect(writers.acknowledgedWrites.allSatisfy { titles.contains($0.title) })
    }

    @Test func twoProcessesOnOnePostgresAcceptOneWritePerBaseRevision() throws {
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        let token = try addAccount("shared", database)
        let arguments = storageArguments(database) + ["--rate-limit", "off", "--threads", "4"]
        let servers = [
            try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("a.log")),
            try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("b.log")),
        ]
        let created = try LoopbackClient(port: servers[0].port, token: token).create("contested", ArticlePayload(title: "start", body: ""))
        let start = try #require(created.revision)
        let ports = servers.map(\.port)

        struct Success: Hashable { var base: Int64; var revision: Int64; var server: Int; var title: String }
        let successes = LockedList<Success>()
        let failures = LockedList<String>()
        let group = DispatchGroup()
        for worker in 0..<12 {
            group.enter()
            Thread {
                defer { group.leave() }
                let serverIndex = worker % 2
                let client = LoopbackClient(port: ports[serverIndex], token: token)
                var base = start
                for attempt in 0..<40 {
                    let title = "worker \(worker) attempt \(attempt)"
                    do {
                        let response = try client.update("contested", ArticlePayload(title: title, body: ""), base: base,
                                                         key: "w\(worker)-a\(attempt)")
                        switch (response.status, response.revision, response.problem?.current?.revision) {
                        case let (200, revision?, _):
                            successes.append(Success(base: base, revision: revision, server: serverIndex, title: title))
                            base = revision
                        case let (412, _, current?):
                            base = current
                        default:
                            failures.append("\(response.status) \(response.text)")
                        }
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }.start()
        }
        group.wait()
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        let chain = successes.all.sorted { $0.revision < $1.revision }
        #expect(Set(chain.map(\.server)) == [0, 1], "both processes should have committed writes")
        #expect(Set(chain.map(\.base)).count == chain.count, "two writes succeeded on one base revision")
        #expect(chain.first?.base == start)
        #expect(zip(chain, chain.dropFirst()).allSatisfy { $1.base == $0.revision })

        for server in servers {
            let feed = try LoopbackClient(port: server.port, token: token).allChanges()
            #expect(zip(feed, feed.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
            #expect(feed.map(\.revision) == [start] + chain.map(\.revision))
            #expect(feed.dropFirst().map { $0.article?.content.title } == chain.map(\.title))
        }
        #expect(servers.map { $0.terminate() } == [0, 0])
    }
}
