import Foundation
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Testing

/// `quire-server token …` and `account delete` through the executable, beside a running server.
@Suite struct TokenVerbTests {
    @Test func devicesGetTheirOwnTokensAndAnAccountIsDeletedOnlyWhenConfirmed() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        let storage = ["--data", directory.path]
        func run(_ words: [String]) throws -> ProgramRun {
            try ServerProcess.run(words + storage)
        }
        let first = try run(["account", "add", "alice", "--token-name", "desktop"])
        #expect(first.status == 0 && first.error.contains("'desktop'"))
        let desktop = first.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let laptop = try run(["token", "add", "alice", "--name", "laptop"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let phone = try run(["token", "add", "alice", "--name", "phone"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(laptop.hasPrefix("qtk_") && phone.hasPrefix("qtk_") && laptop != phone)
        #expect(try run(["token", "add", "alice", "--name", "phone"]).status == 1)
        #expect(try run(["token", "add", "alice"]).status == 2)
        #expect(try run(["token", "add", "nobody", "--name", "x"]).error.contains("no active account named 'nobody'"))

        let server = try ServerProcess(serve: storage, logFile: database.folder.appendingPathComponent("server.log"))
        defer { _ = server.terminate() }
        for token in [desktop, laptop, phone] {
            #expect(try LoopbackClient(port: server.port, token: token).send("GET", SyncPath.changes).status == 200)
        }
        #expect(try run(["token", "revoke", "alice", "laptop"]).status == 0)
        #expect(try LoopbackClient(port: server.port, token: laptop).send("GET", SyncPath.changes).status == 401)
        #expect(try LoopbackClient(port: server.port, token: phone).send("GET", SyncPath.changes).status == 200)

        let listed = try run(["token", "list", "alice"])
        let rows = listed.output.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0[0] } == ["desktop", "laptop", "phone"])
        #expect(rows[1][1].hasPrefix("revoked") && rows[2][1] == "active" && rows[2][3].hasPrefix("last used"))
        for token in [desktop, laptop, phone] { #expect(!listed.output.contains(token)) }

        let writer = LoopbackClient(port: server.port, token: phone)
        #expect(try writer.create("a1", ArticlePayload(title: "T", body: "B")).status == 201)
        let unconfirmed = try run(["account", "delete", "alice"])
        #expect(unconfirmed.status == 1 && unconfirmed.error.contains("--confirm"))
        #expect(try writer.send("GET", SyncPath.article("a1")).status == 200)
        let deleted = try run(["account", "delete", "alice", "--confirm"])
        #expect(deleted.status == 0 && deleted.output.contains("1 articles") && deleted.output.contains("3 tokens"))
        #expect(try writer.send("GET", SyncPath.changes).status == 401)
        #expect(try run(["account", "list"]).output.isEmpty)
        #expect(!server.log.contains(phone))
    }
}
