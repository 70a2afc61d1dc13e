import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library

/// Conflict records: recorded by the sync worker, resolved by the writer, each resolution one save
/// of the article, its outbox operation and the closed conflict.
@Suite struct ConflictTests {
    private let base = ArticleContent(title: "Plan", body: "line one\nline two\n", folder: "Work", tags: ["a"])
    private let remote = ArticleContent(title: "Plan", body: "line one\nTHEIR line two\n", folder: "Work", tags: ["a", "b"])

    /// A synced article, edited locally after a sync, with the server edited too: an open conflict.
    private func conflicted() async throws -> (TemporaryLibrary, ArticleSnapshot, ConflictSnapshot) {
        let store = try TemporaryLibrary()
        let library = store.library
        var article = try await library.createArticle(base)
        try store.markSynced(article.id, at: 3, content: base)
        article = try await library.editArticle(article.id, body: "line one\nMY line two\n")
        try store.inspect { context in
            let operation = try #require(try context.fetch(FetchRequest<SyncOperation>()).first)
            operation.state = .conflicted
            operation.precondition = .revision
            operation.baseRevision = 3
            try context.save()
        }
        let conflict = try await library.recordConflict(
            articleID: article.id, base: base, local: article.content, remote: remote, baseRevision: 3, remoteRevision: 5)
        return (store, article, conflict)
    }

    @Test func recordingMarksTheArticleAndListsTheConflict() async throws {
        let (store, article, conflict) = try await conflicted()
        #expect(try await store.library.article(article.id).syncState == .conflicted)
        let open = try await store.library.openConflicts()
        #expect(open == [conflict])
        #expect(open[0].base == base)
        #expect(open[0].remote == remote)
        #expect(open[0].local?.body == "line one\nMY line two\n")
        #expect(!open[0].isEditVersusDelete)
        #expect(try await store.library.conflict(conflict.id).remoteRevision == 5)
    }

    @Test func keepMinePushesOverTheServerRevision() async throws {
        let (store, article, conflict) = try await conflicted()
        _ = try await store.library.editArticle(article.id, title: "Plan, later")   // an edit after the conflict
        let outcome = try await store.library.resolveConflict(conflict.id, .keepMine)

        #expect(outcome.article?.title == "Plan, later")
        #expect(outcome.article?.body == "line one\nMY line two\n")
        #expect(outcome.article?.syncState == .modified)
        #expect(outcome.article?.serverRevision == 5)
        let outbox = try store.outbox()
        #expect(outbox.count == 1, "the conflicted and later pending operations give way to one")
        #expect(outbox[0].payload?.title == "Plan, later")
        let precondition = try store.inspect { context in
            try context.fetch(FetchRequest<SyncOperation>()).map { ($0.precondition, $0.baseRevision) }.first
        }
        #expect(precondition?.0 == .revision)
        #expect(precondition?.1 == 5)
        #expect(try await baseRevision(store, article.id) == 5)
        #expect(try await store.library.openConflicts() == [])
        #expect(try await store.library.conflict(conflict.id).resolution == .keepMine)
        await #expect(throws: LibraryError.conflictAlreadyResolved(conflict.id)) {
            try await store.library.resolveConflict(conflict.id, .keepTheirs)
        }
    }

    @Test func anEditAfterAResolutionJoinsItsUnsentOperation() async throws {
        let (store, article, conflict) = try await conflicted()
        _ = try await store.library.resolveConflict(conflict.id, .keepMine)
        let resolution = try store.outbox()
        _ = try await store.library.editArticle(article.id, title: "Plan, after the decision")

        // The outbox's one rule, as the worker's coalescing would apply it before sending: the
        // resolution's operation, never sent, takes the edit and keeps the base it names.
        let outbox = try store.outbox()
        #expect(outbox.map(\.operationID) == resolution.map(\.operationID))
        #expect(outbox.first?.payload?.title == "Plan, after the decision")
        let precondition = try store.inspect { context in
            try context.fetch(FetchRequest<SyncOperation>()).map { ($0.precondition, $0.baseRevision) }.first
        }
        #expect(precondition?.0 == .revision && precondition?.1 == 5)
    }

    @Test func onlyAnUnsentOperationTakesAnUnsentChangeThatNamesNoBase() {
        for earlier in SyncOperationState.allCases {
            for later in SyncOperationState.allCases {
                #expect(SyncOperation.absorbs(later, namingItsBase: false, into: earlier) == (earlier == .pending && later == .pending))
                #expect(!SyncOperation.absorbs(later, namingItsBase: true, into: earlier))
            }
        }
    }

    @Test func keepTheirsTakesTheServerVersionWithoutAnOperation() async throws {
        let (store, article, conflict) = try await conflicted()
        let outcome = try await store.library.resolveConflict(conflict.id, .keepTheirs)
        #expect(outcome.article?.content == remote)
        #expect(outcome.article?.syncState == .synced)
        #expect(outcome.article?.serverRevision == 5)
        #expect(try store.outbox() == [])
        #expect(try await baseRevision(store, article.id) == 5)
    }

    @Test func keepBothMakesAConflictedCopy() async throws {
        let (store, article, conflict) = try await conflicted()
        let outcome = try await store.library.resolveConflict(conflict.id, .keepBoth)
        let copy = try #require(outcome.copy)
        #expect(copy.id != article.id)
        #expect(copy.title == "Plan (conflicted copy)")
        #expect(copy.body == "line one\nMY line two\n")
        #expect(copy.syncState == .localOnly)
        #expect(outcome.article?.content == remote)
        let outbox = try store.outbox()
        #expect(outbox.map(\.articleID) == [copy.id])
        #expect(try await store.library.articles(matching: ArticleQuery()).count == 2)
    }

    @Test func aMergedResultIsSavedAndPushed() async throws {
        let (store, article, conflict) = try await conflicted()
        let merge = ArticleMerge(base: base, mine: article.content, theirs: remote)
        var merged = try #require(merge.mergedContent == nil ? remote : nil)
        merged.body = "line one\nMY and THEIR line two\n"
        let outcome = try await store.library.resolveConflict(conflict.id, .merged(merged))
        #expect(outcome.article?.body == merged.body)
        #expect(outcome.article?.tags == ["a", "b"])
        #expect(try store.outbox().first?.payload?.body == merged.body)
        let wordCount = try store.inspect { context in
            try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == article.id)).first?.wordCount
        }
        #expect(wordCount == 7)
    }

    @Test func editVersusDeleteIsRestoredOrAccepted() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Orphan", body: "mine"))
        let deleted = try await library.recordConflict(
            articleID: article.id, base: ArticleContent(title: "Orphan", body: ""), local: article.content, remote: nil,
            baseRevision: 2, remoteRevision: 6)
        #expect(deleted.isEditVersusDelete)
        await #expect(throws: LibraryError.self) { try await library.resolveConflict(deleted.id, .keepBoth) }

        let restored = try await library.resolveConflict(deleted.id, .restoreMine)
        #expect(restored.article?.trashed == nil)
        #expect(restored.article?.serverRevision == nil)
        let operation = try store.inspect { context in try context.fetch(FetchRequest<SyncOperation>()).map { ($0.precondition, $0.change) } }
        #expect(operation.count == 1)
        #expect(operation.first?.0 == .absent, "the server holds a tombstone: the article is created again")
        #expect(operation.first?.1 == .put)

        let again = try await library.recordConflict(
            articleID: article.id, base: nil, local: article.content, remote: nil, baseRevision: nil, remoteRevision: 8)
        let accepted = try await library.resolveConflict(again.id, .acceptDelete)
        #expect(accepted.article?.trashed != nil, "accepting a deletion moves the text to the trash, never away")
        #expect(try store.outbox() == [])
    }

    private func baseRevision(_ store: TemporaryLibrary, _ id: UUID) async throws -> Int64? {
        try store.inspect { context in
            try context.fetch(FetchRequest<ArticleBase>(predicate: \.articleID == id)).first?.revision
        }
    }
}
