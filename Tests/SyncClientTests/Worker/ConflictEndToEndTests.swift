import Foundation
import Library
import ObjectGraph
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient

/// Two libraries and a real quire-server on loopback: concurrent edits of one article merge
/// cleanly or become a conflict, every resolution converges both libraries and the server, and
/// edit-versus-delete goes both ways.
@Suite struct ConflictEndToEndTests {
    /// A server with one account and two devices on it.
    struct Devices {
        let server: TestServer
        let token: String
        let a: ClientLibrary
        let b: ClientLibrary

        init() throws {
            server = try TestServer()
            token = try server.addAccount()
            a = try ClientLibrary("a")
            b = try ClientLibrary("b")
        }

        /// Both devices and the server hold the same live articles; answers them.
        @discardableResult
        func expectConverged(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [UUID: ArticleContent] {
            let onServer = try await server.articles(token: token)
            #expect(try await a.articles() == onServer, sourceLocation: sourceLocation)
            #expect(try await b.articles() == onServer, sourceLocation: sourceLocation)
            #expect(try await a.waitingOperations() == 0, sourceLocation: sourceLocation)
            #expect(try await b.waitingOperations() == 0, sourceLocation: sourceLocation)
            return onServer
        }

        /// An article both devices hold, synced.
        func sharedArticle(_ body: String, title: String = "Shared") async throws -> UUID {
            let article = try await a.library.createArticle(ArticleContent(title: title, body: body, tags: ["sync"]))
            try await a.sync(server, token: token)
            try await b.sync(server, token: token)
            return article.id
        }

        func stop() {
            server.stop()
            a.remove()
            b.remove()
        }
    }

    static let body = (1...12).map { "Line \($0) of the shared draft." }.joined(separator: "\n") + "\n"

    /// A shared article that A edits and syncs, then B moves to the trash and syncs: B's delete
    /// meets A's edit (412), and the conflict on B keeps A's version as the server's.
    static func deleteOnBMeetingAnEditOnA(_ devices: Devices) async throws -> (id: UUID, edited: String, conflict: ConflictSnapshot) {
        let id = try await devices.sharedArticle(Self.body)
        let edited = Self.edit(Self.body, line: 3, to: "Edited on A.")
        try await devices.a.library.editArticle(id, body: edited)
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.library.moveToTrash([id])
        try await devices.b.sync(devices.server, token: devices.token)
        let conflict = try #require(try await devices.b.library.openConflicts().first)
        #expect(conflict.local == nil && conflict.remote?.body == edited)
        return (id, edited, conflict)
    }

    static func edit(_ body: String, line: Int, to text: String) -> String {
        var lines = body.components(separatedBy: "\n")
        lines[line] = text
        return lines.joined(separator: "\n")
    }

    @Test func editsOfDifferentLinesMergeAutomaticallyAndKeepBothSidesOnRecord() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle(Self.body)
        try await devices.a.library.editArticle(id, body: Self.edit(Self.body, line: 1, to: "A changed line 2."))
        try await devices.b.library.editArticle(id, body: Self.edit(Self.body, line: 9, to: "B changed line 10."))
        try await devices.b.library.setFavorite(true, for: [id])
        try await devices.a.sync(devices.server, token: devices.token)
        let summary = try await devices.b.sync(devices.server, token: devices.token)
        #expect(summary.pushConflicts.merged == 1 && summary.status.openConflicts == 0)
        try await devices.a.sync(devices.server, token: devices.token)

        let articles = try await devices.expectConverged()
        let merged = try #require(articles[id])
        #expect(merged.body == Self.edit(Self.edit(Self.body, line: 1, to: "A changed line 2."), line: 9, to: "B changed line 10."))
        #expect(merged.isFavorite)
        let records = try await devices.b.library.automaticMerges(of: id)
        #expect(records.count == 1)
        #expect(records.first?.local?.body.contains("B changed line 10.") == true)
        #expect(records.first?.remote?.body.contains("A changed line 2.") == true)
        #expect(try await devices.b.library.article(id).syncState == .synced)
    }

    @Test(arguments: ["mine", "theirs", "both", "merged"])
    func aConflictResolvedEitherWayConverges(_ choice: String) async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle(Self.body)
        let mine = Self.edit(Self.body, line: 4, to: "B's version of line 5.")
        let theirs = Self.edit(Self.body, line: 4, to: "A's version of line 5.")
        try await devices.a.library.editArticle(id, body: theirs)
        try await devices.b.library.editArticle(id, body: mine)
        try await devices.a.sync(devices.server, token: devices.token)
        let found = try await devices.b.sync(devices.server, token: devices.token)
        #expect(found.pushConflicts.conflicts == 1)
        let conflict = try #require(try await devices.b.library.openConflicts().first)
        #expect(conflict.local?.body == mine && conflict.remote?.body == theirs && conflict.base?.body == Self.body)
        #expect(try await devices.b.library.article(id).syncState == .conflicted)
        // Further edits wait behind the conflict.
        try await devices.b.library.editArticle(id, title: "Shared, retitled on B")

        let resolution: ConflictResolution
        let mergedBody = Self.edit(Self.body, line: 4, to: "Both versions of line 5, reconciled.")
        switch choice {
        case "mine": resolution = .keepMine
        case "theirs": resolution = .keepTheirs
        case "both": resolution = .keepBoth
        default: resolution = .merged(ArticleContent(title: "Shared", body: mergedBody, tags: ["sync"]))
        }
        let outcome = try await devices.b.library.resolveConflict(conflict.id, resolution)
        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)

        let articles = try await devices.expectConverged()
        let article = try #require(articles[id])
        switch choice {
        case "mine":
            #expect(article.body == mine && article.title == "Shared, retitled on B")
        case "theirs":
            #expect(article.body == theirs && article.title == "Shared")
        case "both":
            #expect(article.body == theirs)
            let copy = try #require(outcome.copy)
            #expect(articles[copy.id]?.body == mine)
            #expect(articles[copy.id]?.title == "Shared, retitled on B (conflicted copy)")
        default:
            #expect(article.body == mergedBody)
        }
        #expect(try await devices.b.library.openConflicts().isEmpty)
        #expect(try await devices.b.library.article(id).syncState == .synced)
    }

    @Test func anEditOfAnArticleDeletedOnTheServerIsAConflictThatRestoreBringsBack() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle(Self.body)
        try await devices.a.library.moveToTrash([id])
        try await devices.a.sync(devices.server, token: devices.token)
        let edited = Self.edit(Self.body, line: 0, to: "Edited while it was deleted elsewhere.")
        try await devices.b.library.editArticle(id, body: edited)
        try await devices.b.sync(devices.server, token: devices.token)

        let conflict = try #require(try await devices.b.library.openConflicts().first)
        #expect(conflict.isEditVersusDelete && conflict.remote == nil && conflict.local?.body == edited)
        try await devices.b.library.resolveConflict(conflict.id, .restoreMine)
        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)
        let articles = try await devices.expectConverged()
        #expect(articles[id]?.body == edited)
        #expect(try await devices.a.library.article(id).trashed == nil)
    }

    @Test func aDeleteOfAnArticleEditedOnTheServerIsAConflictThatCanBeAccepted() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let (id, edited, conflict) = try await Self.deleteOnBMeetingAnEditOnA(devices)
        try await devices.b.library.resolveConflict(conflict.id, .keepTheirs)
        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)
        let articles = try await devices.expectConverged()
        #expect(articles[id]?.body == edited)

        // A deletion without a concurrent edit just moves the article to the other trash.
        try await devices.a.library.moveToTrash([id])
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.sync(devices.server, token: devices.token)
        #expect(try await devices.expectConverged()[id] == nil)
        #expect(try await devices.b.library.article(id).trashed != nil)
    }

    /// B deleted the article while A changed it. Delete Anyway (`keep mine`) pushes B's deletion
    /// over A's revision; Keep Their Version (`keep theirs`) brings the article back with A's text.
    /// The other choices are refused with the two that apply, through the library and through
    /// `quire resolve`, and leave the conflict open.
    @Test(arguments: [true, false])
    func aDeleteOfAnArticleEditedOnTheServerCanBeDeletedAnyway(throughTheCommandLine: Bool) async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let (id, _, conflict) = try await Self.deleteOnBMeetingAnEditOnA(devices)
        let remoteRevision = try #require(conflict.remoteRevision)

        for choice in [ConflictResolution.keepBoth, .restoreMine, .acceptDelete] {
            do {
                try await devices.b.library.resolveConflict(conflict.id, choice)
                Issue.record("\(choice) was accepted for an article deleted here and changed on the server")
            } catch let error as LibraryError {
                #expect(error.description.contains("delete it anyway (keep mine) or keep the server's version (keep theirs)"), "\(error)")
            }
        }
        if throughTheCommandLine {
            let quire = try #require(QuireCommand(), "quire is not built beside the tests")
            let both = try await quire.run(["resolve", conflict.id.uuidString, "--keep", "both"], library: devices.b.library.url)
            #expect(both.status != 0)
            #expect(both.error.contains("delete it anyway (keep mine) or keep the server's version (keep theirs)"), "\(both.error)")
            #expect(try await devices.b.library.openConflicts().map(\.id) == [conflict.id])
            let mine = try await quire.run(["resolve", String(conflict.id.uuidString.prefix(8)), "--keep", "mine"], library: devices.b.library.url)
            #expect(mine.status == 0, "\(mine.error)")
        } else {
            let outcome = try await devices.b.library.resolveConflict(conflict.id, .keepMine)
            #expect(outcome.article?.trashed != nil)
        }

        // One save left the article in the trash, one deletion based on A's revision, and the
        // conflict closed.
        let left = try await devices.b.library.container.performBackgroundTask { context in
            let operations = try context.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == id))
                .map { ($0.change, $0.precondition, $0.baseRevision, $0.state) }
            let article = try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id)).first
            return (operations, article?.trashed != nil, article?.syncState)
        }
        #expect(left.0.count == 1)
        #expect(left.0.first?.0 == .delete && left.0.first?.1 == .revision && left.0.first?.2 == remoteRevision)
        #expect(left.0.first?.3 == .pending)
        #expect(left.1 && left.2 == .modified)
        #expect(try await devices.b.library.conflict(conflict.id).resolution == .keepMine)
        #expect(try await devices.b.library.openConflicts().isEmpty)

        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)
        #expect(try await devices.expectConverged()[id] == nil)
        #expect(try await devices.a.library.article(id).trashed != nil, "A's edit is in A's trash, not gone")
        #expect(try await devices.b.library.article(id).syncState == .synced)
    }

    @Test func aDeleteOnBothSidesNeedsNoDecision() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle(Self.body)
        try await devices.a.library.moveToTrash([id])
        try await devices.b.library.moveToTrash([id])
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.sync(devices.server, token: devices.token)
        #expect(try await devices.b.library.openConflicts().isEmpty)
        #expect(try await devices.expectConverged()[id] == nil)
    }
}
