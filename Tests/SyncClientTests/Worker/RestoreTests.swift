import Foundation
import Library
import ObjectGraph
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// A server restored from an older backup, met by its clients through the resync path they
/// already have (410, snapshot): no text a writer saw as saved is lost, and what the server lost
/// comes back from the devices that hold it.
@Suite struct RestoreTests {
    @Test func clientsOfARestoredOlderBackupResyncAndKeepEveryText() async throws {
        var server = try TestServer()
        let folder = server.folder
        let token = try server.addAccount()
        let a = try ClientLibrary("restore-a")
        let b = try ClientLibrary("restore-b")
        defer {
            server.stop()
            a.remove()
            b.remove()
        }
        let kept = try await a.library.createArticle(ArticleContent(title: "Kept", body: "Before the backup.\n"))
        let edited = try await a.library.createArticle(ArticleContent(title: "Edited", body: "First version.\n"))
        try await a.sync(server, token: token)
        let backup = folder.appendingPathComponent("backup.sqlite3")
        try server.storage.backup(to: backup)

        // Acknowledged after the backup: the restore loses them on the server.
        let lost = try await a.library.createArticle(ArticleContent(title: "Lost", body: "Written after the backup.\n"))
        _ = try await a.library.editArticle(edited.id, body: "Second version, after the backup.\n")
        try await a.sync(server, token: token)
        #expect(try await server.articles(token: token).count == 3)

        let port = server.port
        server.shutDown()
        let restored = try TestServer.location(folder).restore(from: backup)
        #expect(restored.accounts == 1)
        server = try TestServer(folder: folder, port: port)

        // A resyncs from the snapshot. Nothing it holds is overwritten by the older server
        // versions: the article the server lost is in A's trash (deleted on the server, as far
        // as A can tell), and the newer text of the edited one stays.
        let resync = try await a.sync(server, token: token)
        #expect(resync.resynced)
        let afterResync = try await a.articles()
        #expect(afterResync[kept.id]?.body == "Before the backup.\n")
        #expect(afterResync[edited.id]?.body == "Second version, after the backup.\n")
        #expect(afterResync[lost.id] == nil)
        #expect(try await a.trashedBodies()[lost.id] == "Written after the backup.\n")

        // A new device sees the server as restored.
        try await b.sync(server, token: token)
        let restoredOnServer = try await server.articles(token: token)
        #expect(try await b.articles() == restoredOnServer)
        #expect(try await b.articles()[edited.id]?.body == "First version.\n")

        // What the server lost comes back from A. The lost article, restored from the trash, is
        // created again. The edited one, edited once more, meets the restored older version
        // (412): a conflict the writer decides, here keeping the device's text.
        try await a.library.restore([lost.id])
        _ = try await a.library.editArticle(edited.id, body: "Second version, after the backup.\nAnd a third line.\n")
        try await a.sync(server, token: token)
        let conflict = try #require(try await a.library.openConflicts().first { $0.articleID == edited.id })
        #expect(conflict.remote?.body == "First version.\n")
        #expect(conflict.local?.body == "Second version, after the backup.\nAnd a third line.\n")
        _ = try await a.library.resolveConflict(conflict.id, .keepMine)
        try await a.sync(server, token: token)
        try await b.sync(server, token: token)
        let onServer = try await server.articles(token: token)
        #expect(onServer[lost.id]?.body == "Written after the backup.\n")
        #expect(onServer[edited.id]?.body == "Second version, after the backup.\nAnd a third line.\n")
        #expect(onServer[kept.id]?.body == "Before the backup.\n")
        #expect(try await a.articles() == onServer)
        #expect(try await b.articles() == onServer)
        #expect(try await a.waitingOperations() == 0)
        #expect(try await b.waitingOperations() == 0)
    }
}
