import Foundation
import ObjectGraph
import Platform
import SyncProtocol
import Testing
@testable import Library
import QuireTestSupport

/// The writer's operations on temporary stores: each changes the article and writes its outbox
/// operation in the same save, with the derived fields and sync state kept current.
@Suite struct LibraryOperationTests {
    @Test func createWritesTheArticleAndAPendingPut() async throws {
        let store = try TemporaryLibrary()
        let content = ArticleContent(
            title: "Écoles du Nord", body: "# Écoles\n\nA *short* note on [schools](https://example.org).\n",
            folder: "Essays", tags: ["travel", "history"], status: .ready, isFavorite: true)
        let article = try await store.library.createArticle(content)

        #expect(article.content == ArticleContent(
            title: content.title, body: content.body, folder: "Essays", tags: ["history", "travel"], status: .ready, isFavorite: true))
        #expect(article.syncState == .localOnly)
        #expect(article.serverRevision == nil)
        #expect(article.localRevision == 1)
        #expect(article.created == article.updated)
        let stored = try store.inspect { context in
            let row = try #require(try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == article.id)).first)
            return (row.excerpt, row.wordCount, row.sortTitle)
        }
        #expect(stored.0 == "A short note on schools.")
        #expect(stored.1 == 6)
        #expect(stored.2 == "ecoles du nord")

        let outbox = try store.outbox()
        #expect(outbox.count == 1)
        #expect(outbox[0].articleID == article.id)
        #expect(outbox[0].change == .put)
        #expect(outbox[0].state == .pending)
        #expect(outbox[0].payload == ArticlePayload(
            title: content.title, body: content.body, folder: "Essays", tags: ["history", "travel"], status: .ready, favorite: true,
            language: ArticleLanguage.preferred))
        #expect(UUID(uuidString: outbox[0].operationID) != nil, "operation IDs are UUIDs, valid idempotency keys")
        #expect(try await store.library.folders() == [FolderSummary(name: "Essays", articleCount: 1)])
        #expect(try await store.library.tagNames() == ["history", "travel"])
    }

    @Test func editsRewriteTheUnsentOperation() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Draft", body: "one"))
        let operationID = try store.outbox()[0].operationID
        let edited = try await store.library.editArticle(article.id, title: "Final", body: "one two three")
        #expect(edited.title == "Final")
        #expect(edited.localRevision == 2)
        #expect(edited.updated >= article.updated)

        let outbox = try store.outbox()
        #expect(outbox.count == 1, "a pending operation that was never sent carries the newest content")
        #expect(outbox[0].operationID == operationID)
        #expect(outbox[0].payload?.title == "Final")
        #expect(outbox[0].payload?.body == "one two three")
        let wordCount = try store.inspect { context in
            try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == article.id)).first?.wordCount
        }
        #expect(wordCount == 3)
    }

    @Test func anOperationTheWorkerTookIsNeverRewritten() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Sent", body: "v1"))
        // The sync worker sends the operation.
        try store.startSending(operationOf: article.id)
        _ = try await store.library.editArticle(article.id, body: "v2")
        var outbox = try store.outbox()
        #expect(outbox.map(\.state) == [.sending, .pending])
        #expect(outbox.map { $0.payload?.body } == ["v1", "v2"])
        #expect(outbox[1].sequence > outbox[0].sequence)

        try store.inspect { context in
            let article = try #require(try context.fetch(FetchRequest<StoredArticle>()).first)
            article.serverRevision = 7
            article.syncState = .synced
            try context.save()
        }
        let edited = try await store.library.editArticle(article.id, body: "v3")
        #expect(edited.syncState == .modified)
        outbox = try store.outbox()
        #expect(outbox.map { $0.payload?.body } == ["v1", "v3"])
    }

    @Test func organisingWritesOperationsWithoutReordering() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let first = try await library.createArticle(ArticleContent(title: "First", body: "a"))
        let second = try await library.createArticle(ArticleContent(title: "Second", body: "b"))
        try await library.createFolder(named: "Essays")
        try await library.moveArticles([first.id, second.id], toFolder: "Essays")
        try await library.tagArticles([first.id], with: "swift")
        try await library.setFavorite(true, for: [second.id])
        try await library.setStatus(.published, for: [first.id])

        let moved = try await library.article(first.id)
        #expect(moved.folder == "Essays")
        #expect(moved.tags == ["swift"])
        #expect(moved.status == .published)
        #expect(moved.updated > first.updated, "a status change is an edit")
        #expect(moved.localRevision == 4)
        let starred = try await library.article(second.id)
        #expect(starred.isFavorite)
        #expect(starred.updated == second.updated, "moving and starring do not reorder the list")

        let outbox = try store.outbox()
        #expect(outbox.count == 2)
        #expect(outbox.first { $0.articleID == first.id }?.payload == ArticlePayload(
            title: "First", body: "a", folder: "Essays", tags: ["swift"], status: .published, favorite: false,
            language: ArticleLanguage.preferred))
        #expect(outbox.first { $0.articleID == second.id }?.payload?.favorite == true)

        try await library.untagArticles([first.id], from: "swift")
        try await library.moveArticles([first.id], toFolder: nil)
        let unfiled = try await library.article(first.id)
        #expect(unfiled.tags == [])
        #expect(unfiled.folder == nil)
        await #expect(throws: LibraryError.folderNotFound("Nowhere")) {
            try await library.moveArticles([first.id], toFolder: "Nowhere")
        }
        await #expect(throws: LibraryError.articleNotFound(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))) {
            try await library.setFavorite(true, for: [UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))])
        }
    }

    @Test func trashWritesATombstoneAndRestoreBringsItBack() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Gone", body: "soon"))
        try store.inspect { context in
            // Acknowledged by the server: the next change needs an operation of its own.
            let operation = try #require(try context.fetch(FetchRequest<SyncOperation>()).first)
            operation.state = .acknowledged
            operation.acknowledgedRevision = 3
            try context.save()
        }
        try await library.moveToTrash([article.id])
        #expect(try await library.article(article.id).trashed != nil)
        #expect(try store.outbox(of: article.id).map(\.change) == [.put, .delete])
        #expect(try store.outbox(of: article.id).last?.payload == nil)

        try await library.moveToTrash([article.id])
        try await library.setStatus(.ready, for: [article.id])
        #expect(try store.outbox(of: article.id).count == 2, "an article that stays in the trash needs no operation")

        try await library.restore([article.id])
        #expect(try await library.article(article.id).trashed == nil)
        let outbox = try store.outbox(of: article.id)
        #expect(outbox.map(\.change) == [.put, .put], "delete then put before sending is a put")
        #expect(outbox.last?.payload?.status == .ready)
    }

    @Test func emptyTrashKeepsConflictedArticlesAndTheOutbox() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let plain = try await library.createArticle(ArticleContent(title: "Plain", body: ""))
        let disputed = try await library.createArticle(ArticleContent(title: "Disputed", body: ""))
        let kept = try await library.createArticle(ArticleContent(title: "Kept", body: ""))
        try await library.moveToTrash([plain.id, disputed.id])
        try await library.recordConflict(
            articleID: disputed.id, base: nil, local: nil, remote: ArticleContent(title: "Disputed", body: "theirs"),
            baseRevision: nil, remoteRevision: 4)

        let result = try await library.emptyTrash()
        #expect(result == EmptyTrashResult(deleted: 1, kept: 1))
        await #expect(throws: LibraryError.articleNotFound(plain.id)) { try await library.article(plain.id) }
        #expect(try await library.article(disputed.id).trashed != nil)
        #expect(try await library.article(kept.id).trashed == nil)
        #expect(try store.outbox(of: plain.id).map(\.change) == [.delete], "the tombstone outlives the article")
    }

    @Test func foldersRenameAndDeleteThroughTheirArticles() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let inside = try await library.createArticle(ArticleContent(title: "Inside", body: "", folder: "Drafts"))
        let trashed = try await library.createArticle(ArticleContent(title: "Trashed", body: "", folder: "Drafts"))
        try await library.moveToTrash([trashed.id])
        try store.inspect { context in
            for operation in try context.fetch(FetchRequest<SyncOperation>()) { operation.state = .acknowledged }
            try context.save()
        }

        try await library.renameFolder("Drafts", to: "Working")
        #expect(try await library.article(inside.id).folder == "Working")
        #expect(try store.outbox(of: inside.id).last?.payload?.folder == "Working")
        #expect(try store.outbox(of: inside.id).last?.state == .pending)
        #expect(try store.outbox(of: trashed.id).map(\.change) == [.delete], "the trashed article's tombstone is enough")
        await #expect(throws: LibraryError.folderExists("Working")) { try await library.createFolder(named: "Working") }

        try await library.deleteFolder(named: "Working")
        #expect(try await library.article(inside.id).folder == nil)
        #expect(try store.outbox(of: inside.id).last?.payload?.folder == nil)
        #expect(try await library.folders() == [])
        for name in ["", "  ", "tab\tname", String(repeating: "x", count: 5000)] {
            await #expect(throws: LibraryError.self) { try await library.createFolder(named: name) }
        }
    }

    @Test func contentTheServerWouldRefuseIsRefusedFirst() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Fine", body: ""))
        await #expect(throws: LibraryError.invalidContent(
            article: article.id, violation: FieldViolation(field: "body", reason: "must not contain U+0000", rule: .containsNUL))) {
            try await store.library.editArticle(article.id, body: "nul \u{0} inside")
        }
        await #expect(throws: LibraryError.self) {
            try await store.library.editArticle(article.id, title: String(repeating: "t", count: 5000))
        }
        #expect(try await store.library.article(article.id).body == "")
        #expect(try store.outbox().count == 1)
    }

    @Test func aConcurrentChangeIsRetriedFromAFreshRead() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Busy", body: ""))
        // Many edits at once, each a read-modify-write of the same rows: none may be lost.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask { try await library.tagArticles([article.id], with: "tag\(index)") }
            }
            try await group.waitForAll()
        }
        let tagged = try await library.article(article.id)
        #expect(tagged.tags.count == 12)
        #expect(tagged.localRevision == 13)
        #expect(try store.outbox(of: article.id).last?.payload?.tags?.count == 12)
    }

    @Test func concurrentCreationsShareFoldersAndNeverShareASequence() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try await library.createArticle(ArticleContent(title: "Parallel \(index)", body: "", folder: "Shared", tags: ["common"]))
                }
            }
            try await group.waitForAll()
        }
        #expect(try await library.folders() == [FolderSummary(name: "Shared", articleCount: 12)])
        #expect(try await library.tagNames() == ["common"])
        let sequences = try store.outbox().map(\.sequence)
        #expect(sequences.count == 12)
        #expect(Set(sequences).count == 12)
    }

    /// Articles saved together are queued in the order they were created, those created at the
    /// same moment in the order of their IDs' text.
    @Test func articlesSavedTogetherAreQueuedByCreationThenID() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        defer { library.close() }
        var random = SeededGenerator(seed: 35)
        let moments = (0..<3).map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0) * 60) }
        // IDs alike up to their last byte too, where a comparison of fewer bytes would stop.
        let alike = (0..<8).map { last in UUID(uuid: (1, 2, 3, 4, 5, 6, 0x47, 8, 0x89, 10, 11, 12, 13, 14, 15, UInt8(last * 31))) }
        let ids = alike + (0..<40).map { _ in random.uuid() }
        let articles = ids.shuffled(using: &random).enumerated().map { index, id in
            let created = moments[index % moments.count]
            return ArticleSnapshot(id: id, title: "Article \(index)", body: "", created: created, updated: created)
        }
        try await library.applyImport(creatingFolders: [], tags: [], writes: articles.map { ImportWrite(.create, $0) }, batchSize: articles.count)

        let expected = articles.sorted { ($0.created, $0.id.uuidString) < ($1.created, $1.id.uuidString) }.map(\.id)
        #expect(try store.outbox().map(\.articleID) == expected)
    }

    @Test func aMissingLibraryIsNotCreatedUnlessAsked() throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("nested/library.quire")
        #expect(throws: LibraryError.noLibrary(path: url.path)) { try Library(url: url, createIfMissing: false) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        _ = try Library(url: url)
        #expect(FileManager.default.fileExists(atPath: url.path))
        _ = try Library(url: url, createIfMissing: false)
    }

    @Test func theShippedSchemaNeverChanges() {
        // Every version as shipped. A change here is a new schema version with a migration, never an edit.
        #expect(LibrarySchema.v1.version == 1)
        #expect(LibrarySchema.v1.checksum == "9c46747a43839ab1539d0291dcbc2f716c4489ecd8efe093a09b9519efeacad3")
        #expect(LibrarySchema.v2.version == 2)
        #expect(LibrarySchema.v2.checksum == "79775bdf144492c378a1c6e35d25b870872cc643d89c0cfbbf9ee249bc01f1a5")
        #expect(LibrarySchema.v3.version == 3)
        #expect(LibrarySchema.v3.checksum == "6b146b05abbe54029af42a818fa3cae46753d65243b058ca89e588623eb6725a")
        #expect(LibrarySchema.v4.version == 4)
        #expect(LibrarySchema.v4.checksum == "52287067cd6ca849122ada0bf38a5c9c99323b7f3f76b062859f6f0f489282b6")
        #expect(LibrarySchema.v5.version == 5)
        #expect(LibrarySchema.v5.checksum == "0021e892623424a79650f92cce8b495a44fc0a1b4597e312d20c52fb5df5146a")
        #expect(LibrarySchema.v6.version == 6)
        #expect(LibrarySchema.v6.checksum == "f7cda2c760fb74c3229111ca5049150d2ce79953ce0bd19a0c41a58fe858f38f")
        #expect(LibrarySchema.current.checksum == LibrarySchema.v6.checksum)
        #expect(
            LibrarySchema.migrationPlan().schemas.map(\.checksum)
                == [LibrarySchema.v1.checksum, LibrarySchema.v2.checksum, LibrarySchema.v3.checksum, LibrarySchema.v4.checksum,
                    LibrarySchema.v5.checksum, LibrarySchema.v6.checksum])
    }
}
