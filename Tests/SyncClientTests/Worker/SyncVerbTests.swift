import Foundation
import Library
import SyncTestSupport
import Testing
import QuireTestSupport
@testable import SyncClient

/// `quire sync` as a script runs it: each way of not syncing has an exit status of its own
/// (unreachable 69, busy 75, refused 76, as `quire help sync` says), and `--json` gives refused
/// changes as objects with a kind and the article's ID.
@Suite struct SyncVerbTests {
    private func quire() throws -> QuireCommand {
        try #require(QuireCommand(), "quire is not built beside the tests")
    }

    private func json(_ run: ProgramRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
    }

    @Test func aServerThatCannotBeReachedExitsWith69() async throws {
        // A port that was just free: nothing listens there.
        let gone = try TestServer()
        let port = gone.port
        gone.stop()
        let device = try ClientLibrary("sync-verb-unreachable")
        defer { device.remove() }
        try await device.library.createArticle(ArticleContent(title: "Offline", body: "Kept.\n"))
        let arguments = ["sync", "--server", "http://127.0.0.1:\(port)", "--token", "t", "--timeout", "1"]

        let text = try await quire().run(arguments, library: device.library.url)
        #expect(text.status == 69, "\(text.error)")
        #expect(text.error.hasPrefix("quire sync: The server cannot be reached"), "\(text.error)")
        #expect(text.output.contains("1 change still waits to be sent"))
        let report = try json(try await quire().run(arguments + ["--json"], library: device.library.url))
        let problem = try #require(report["problem"] as? [String: Any])
        #expect(problem["kind"] as? String == "unreachable")
        #expect(report["waiting"] as? Int == 1)
        #expect(try await device.waitingOperations() == 1, "nothing is lost")
    }

    @Test func aRefusedTokenExitsWith76() async throws {
        let server = try TestServer()
        defer { server.stop() }
        _ = try server.addAccount()
        let device = try ClientLibrary("sync-verb-token")
        defer { device.remove() }
        let run = try await quire().run(
            ["sync", "--server", "http://127.0.0.1:\(server.port)", "--token", "not-a-token"], library: device.library.url)
        #expect(run.status == 76)
        #expect(run.error.hasPrefix("quire sync: the server refused the account's token; sign in again"), "\(run.error)")
    }

    /// A change the server will never take (over its size limit): exit 76, and the failure in
    /// `--json` names its kind, status and article.
    @Test func aRefusedChangeExitsWith76AndIsListedWithItsArticle() async throws {
        let server = try TestServer { $0.maximumBodyBytes = 4096 }
        defer { server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("sync-verb-refused")
        defer { device.remove() }
        let large = try await device.library.createArticle(ArticleContent(title: "Too long", body: String(repeating: "word ", count: 2000)))
        try await device.library.createArticle(ArticleContent(title: "Fine", body: "Short.\n"))

        let run = try await quire().run(
            ["sync", "--server", "http://127.0.0.1:\(server.port)", "--token", token, "--json"], library: device.library.url)
        #expect(run.status == 76, "\(run.error)")
        #expect(run.error.contains("the server refused 1 change for good"), "\(run.error)")
        let report = try json(run)
        #expect(report["pushed"] as? Int == 1 && report["refused"] as? Int == 1)
        let failure = try #require((report["failures"] as? [[String: Any]])?.first)
        #expect(failure["kind"] as? String == "tooLarge" && failure["status"] as? Int == 413)
        #expect(failure["articleId"] as? String == large.id.uuidString.lowercased())
        #expect(failure["title"] as? String == "Too long")
        #expect(report["problem"] is NSNull)
    }

    @Test func aLibraryAnotherProcessSyncsExitsWith75() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("sync-verb-busy")
        defer { device.remove() }
        // An hour: the test releases the lease itself, and on a loaded machine starting the child
        // `quire` has taken long enough for a shorter hold to expire (it then synced: exit 0).
        let store = SyncStore(library: device.library, lease: LeaseClaim(owner: .thisProcess(), duration: 3600))
        #expect(try await store.acquireLease() == .held)
        let run = try await quire().run(
            ["sync", "--server", "http://127.0.0.1:\(server.port)", "--token", token], library: device.library.url)
        try await store.releaseLease()
        #expect(run.status == 75)
        #expect(run.error.hasPrefix("quire sync: another Quire process"), "\(run.error)")
        let again = try await quire().run(
            ["sync", "--server", "http://127.0.0.1:\(server.port)", "--token", token], library: device.library.url)
        #expect(again.status == 0, "\(again.error)")
    }

    @Test func helpListsTheExitStatuses() async throws {
        let device = try ClientLibrary("sync-verb-help")
        defer { device.remove() }
        let help = try await quire().run(["sync", "--help"], library: device.library.url)
        for line in ["  69  the server could not be reached", "  75  the library is busy", "  76  the server refused"] {
            #expect(help.output.contains(line), "\(help.output)")
        }
    }
}
