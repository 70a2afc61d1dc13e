import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library

/// An open conflict's local side is the live article: every local change re-reads it in the same
/// save (a restore, an edit, a move to the trash change what it is about; sides that come to agree
/// settle it), and every resolution is carried out against the article as it stands, never
/// dropping text saved after the conflict was found.
@Suite struct LiveConflictTests {
    static let base = ArticleContent(title: "Plan", body: "one\ntwo\nthree\n", tags: ["a"])
    static let remote = ArticleContent(title: "Plan", body: "one\nTHEIR two\nthree\n", tags: ["a"])
    static let laterLine = "A's line after the restore\n"

    /// An article synced at revision 3 (its base), changed by `change` as the writer would, then
    /// met by the server's version `remote` at revision 5: the conflict the sync worker records
    /// (this device's side as it stood, the first unsent operation marked conflicted).
    private func conflicted(
        remote: ArticleContent? = Self.remote, _ change: (Library, UUID) async throws -> Void
    ) async throws -> (TemporaryLibrary, UUID, ConflictSnapshot) {
        let store = try TemporaryLibrary()
        let id = try await store.library.createArticle(Self.base).id
        try store.markSynced(id, at: 3, content: Self.base)
        try await change(store.library, id)
        let local = try store.inspect { context in
            let operation = try #require(try context.fetch(FetchRequest<SyncOperation>(sortDescriptors: [.ascending(\.sequence)])).first)
            operation.state = .conflicted
            operation.precondition = .revision
            operation.baseRevision = 3
            try context.save()
            let stored = try #require(try context.fetch(FetchRequest<StoredArticle>()).first)
            return stored.trashed == nil ? stored.content : nil
        }
        let conflict = try await store.library.recordConflict(
            articleID: id, base: Self.base, local: local, remote: remote, baseRevision: 3, remoteRevision: 5)
        return (store, id, conflict)
    }

    /// Every live article's and trashed article's body, by title.
    private func bodies(_ store: TemporaryLibrary, trash: Bool = false) async throws -> [String: String] {
        let articles = try await store.library.articles(matching: ArticleQuery(filter: trash ? .trash : .all))
        var bodies: [String: String] = [:]
        for summary in articles { bodies[summary.title] = try await store.library.article(summary.id).body }
        return bodies
    }

    private func operations(_ store: TemporaryLibrary, _ id: UUID) throws -> [(SyncOperationChange, SyncOperationPrecondition?, Int64?)] {
        try store.inspect { context in
            try context.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == id, sortDescriptors: [.ascending(\.sequence)]))
                .map { ($0.change, $0.precondition, $0.baseRevision) }
        }
    }

    // MARK: The path

    /// Trashed here, edited on the server; restored and edited here: the restore merges cleanly
    /// (nothing changed here since the base), so the conflict settles with the server's version
    /// and the edit after it is an ordinary edit on top, sent against the server's revision.
    @Test func aRestoreThatMergesCleanlySettlesTheConflictAndTheEditAfterItIsKept() async throws {
        let (store, id, conflict) = try await conflicted { library, id in try await library.moveToTrash([id]) }
        #expect(conflict.kind == .deletedHere && conflict.local == nil)

        try await store.library.restore([id])
        #expect(try await store.library.openConflicts().isEmpty)
        #expect(try await store.library.conflict(conflict.id).resolution == .mergedAutomatically)
        let restored = try await store.library.article(id)
        #expect(restored.content == Self.remote && restored.trashed == nil)
        #expect(restored.syncState == .synced && restored.serverRevision == 5)
        #expect(try operations(store, id).isEmpty, "the server holds exactly this")

        let edited = try await store.library.editArticle(id, body: Self.remote.body + Self.laterLine)
        #expect(edited.syncState == .modified)
        let outbox = try store.outbox(of: id)
        #expect(outbox.count == 1 && outbox[0].change == .put && outbox[0].payload?.body == Self.remote.body + Self.laterLine)
        let base = try store.inspect { context in try context.fetch(FetchRequest<ArticleBase>(predicate: \.articleID == id)).first?.revision }
        #expect(base == 5, "sent against the server's revision")
    }

    /// Edited and trashed here, edited on the same line on the server: the restore turns the
    /// conflict into an edit conflict whose local side is the restored text, and an edit after it
    /// is part of it. No choice drops that edit.
    @Test(arguments: ["mine", "theirs", "both", "merged"])
    func aRestoreThatConflictsBecomesAnEditConflictAndNoChoiceDropsTheLaterEdit(_ choice: String) async throws {
        let mine = ArticleContent(title: "Plan", body: "one\nMY two\nthree\n", tags: ["a"])
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: mine.body)
            try await library.moveToTrash([id])
        }
        try await store.library.restore([id])
        var open = try #require(try await store.library.openConflicts().first)
        #expect(open.id == conflict.id && open.kind == .editedOnBothSides && open.local?.body == mine.body)

        try await store.library.editArticle(id, body: mine.body + Self.laterLine)
        open = try #require(try await store.library.openConflicts().first)
        #expect(open.local?.body == mine.body + Self.laterLine, "the edit after detection is part of mine")
        #expect(open.sides.keepTheirsKeepsCopy)

        let resolution: ConflictResolution = switch choice {
        case "mine": .keepMine
        case "theirs": .keepTheirs
        case "both": .keepBoth
        default: .merged(ArticleContent(title: "Plan", body: "one\nMY two\nTHEIR two\nthree\n" + Self.laterLine, tags: ["a"]))
        }
        let outcome = try await store.library.resolveConflict(open.id, resolution)
        #expect(outcome.kind == .editedOnBothSides)
        let live = try await bodies(store)
        #expect(live.values.contains { $0.contains(Self.laterLine) }, "\(choice): \(live)")
        switch choice {
        case "mine":
            #expect(live["Plan"] == mine.body + Self.laterLine)
            #expect(try operations(store, id).map(\.0) == [.put] && operations(store, id).first?.2 == 5)
        case "theirs", "both":
            #expect(live["Plan"] == Self.remote.body)
            let copy = try #require(outcome.copy)
            #expect(copy.title == "Plan (conflicted copy)" && copy.body == mine.body + Self.laterLine && copy.trashed == nil)
            #expect(try store.outbox(of: copy.id).map(\.change) == [.put], "the copy goes to the server as a new article")
            #expect(outcome.summary.english.contains("“Plan (conflicted copy)”"), "\(outcome.summary)")
        default:
            #expect(try operations(store, id).first?.2 == 5)
        }
        #expect(try await store.library.openConflicts().isEmpty)
    }

    // MARK: Keep Theirs and what the writer saw

    @Test func keepTheirsDropsOnlyTextThatWasThereWhenTheConflictWasFound() async throws {
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: "one\nMY two\nthree\n")
        }
        #expect(!conflict.sides.keepTheirsKeepsCopy)
        let outcome = try await store.library.resolveConflict(conflict.id, .keepTheirs)
        #expect(outcome.copy == nil)
        #expect(outcome.summary.english == "Took the server's version of “Plan”.")
        #expect(try await store.library.article(id).body == Self.remote.body)
        #expect(try await store.library.count(matching: ArticleQuery()) == 1)
    }

    /// Moved to the trash after the conflict was found: "deleted here". Keep Mine sends the
    /// deletion and leaves the text in the trash; Keep Theirs brings the server's version back and
    /// keeps the text edited after detection in the trash, as a copy nobody else gets.
    @Test(arguments: [true, false])
    func aMoveToTheTrashMakesItDeletedHere(keepingMine: Bool) async throws {
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: "one\nMY two\nthree\n")
        }
        try await store.library.editArticle(id, body: "one\nMY two\nthree\n" + Self.laterLine)
        try await store.library.moveToTrash([id])
        let open = try #require(try await store.library.openConflicts().first)
        #expect(open.kind == .deletedHere && open.local == nil && open.sides.keepTheirsKeepsCopy)

        let outcome = try await store.library.resolveConflict(conflict.id, keepingMine ? .keepMine : .keepTheirs)
        let trashed = try await bodies(store, trash: true)
        if keepingMine {
            #expect(outcome.sends == .delete)
            #expect(try operations(store, id).map(\.0) == [.delete] && operations(store, id).first?.2 == 5)
            #expect(trashed["Plan"]?.contains(Self.laterLine) == true, "the deleted text stays in the trash")
            #expect(outcome.summary.english.contains("stays in the Trash"), "\(outcome.summary)")
        } else {
            #expect(try await store.library.article(id).body == Self.remote.body)
            let copy = try #require(outcome.copy)
            #expect(copy.trashed != nil && trashed["Plan (conflicted copy)"]?.contains(Self.laterLine) == true)
            #expect(try store.outbox(of: copy.id).isEmpty, "deleted text is not sent anywhere")
            #expect(outcome.summary.english.hasSuffix("in the Trash."), "\(outcome.summary)")
            #expect(try await bodies(store).values.allSatisfy { !$0.contains(Self.laterLine) }, "nothing deleted comes back")
        }
    }

    /// The writer decided Delete Anyway (Keep Mine) on a conflict shown as "deleted here"; the
    /// article was restored before the decision was saved, so Keep Mine would now send its text.
    /// A decision against another kind changes nothing; against the kind it has, it is carried out.
    @Test func aDecisionAgainstAKindTheConflictNoLongerHasChangesNothing() async throws {
        let mine = ArticleContent(title: "Plan", body: "one\nMY two\nthree\n", tags: ["a"])
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: mine.body)
            try await library.moveToTrash([id])
        }
        #expect(conflict.kind == .deletedHere)
        let before = try operations(store, id)
        try await store.library.restore([id])
        let operationsAfterRestore = try operations(store, id)
        #expect(operationsAfterRestore.count == before.count + 1)

        await #expect(throws: LibraryError.conflictChanged(conflict: conflict.id, decidedAgainst: .deletedHere, now: .editedOnBothSides)) {
            try await store.library.resolveConflict(conflict.id, .keepMine, ifKind: .deletedHere)
        }
        #expect(try await store.library.openConflicts().map(\.id) == [conflict.id], "still open")
        #expect(try operations(store, id).map(\.0) == operationsAfterRestore.map(\.0), "nothing was written")
        let error = LibraryError.conflictChanged(conflict: conflict.id, decidedAgainst: .deletedHere, now: .editedOnBothSides)
        #expect(error.description.hasSuffix("was deleted here, edited on the server and is edited on both sides now: "
            + "nothing was changed; look at it again ('quire conflicts') and decide"))

        let outcome = try await store.library.resolveConflict(conflict.id, .keepMine, ifKind: .editedOnBothSides)
        #expect(outcome.sends == .put && outcome.kind == .editedOnBothSides)
        #expect(try await store.library.article(id).body == mine.body)
    }

    @Test func aMoveToTheTrashOfAnArticleDeletedOnTheServerSettlesIt() async throws {
        let (store, id, conflict) = try await conflicted(remote: nil) { library, id in
            try await library.editArticle(id, body: "one\nMY two\nthree\n")
        }
        #expect(conflict.kind == .deletedOnServer)
        try await store.library.moveToTrash([id])
        #expect(try await store.library.openConflicts().isEmpty)
        #expect(try await store.library.conflict(conflict.id).resolution == .mergedAutomatically)
        let article = try await store.library.article(id)
        #expect(article.trashed != nil && article.body == "one\nMY two\nthree\n", "the text stays in the trash")
        #expect(article.serverRevision == nil)
        #expect(try operations(store, id).isEmpty, "both sides deleted it: nothing to send")
    }

    // MARK: Sides that come to agree

    @Test func anEditThatMakesBothSidesEqualSettlesIt() async throws {
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: "one\nMY two\nthree\n")
        }
        try await store.library.editArticle(id, body: Self.remote.body)
        #expect(try await store.library.conflict(conflict.id).resolution == .mergedAutomatically)
        let article = try await store.library.article(id)
        #expect(article.syncState == .synced && article.serverRevision == 5)
        #expect(try operations(store, id).isEmpty)
    }

    /// Taking back the conflicting line leaves a clean merge: the server's line and the local tag
    /// and status, pushed over the server's revision.
    @Test func anEditThatMergesCleanlySettlesItAndPushesTheMerge() async throws {
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: "one\nMY two\nthree\n")
            try await library.tagArticles([id], with: "mine")
            try await library.setStatus(.ready, for: [id])
        }
        try await store.library.editArticle(id, body: Self.base.body)
        #expect(try await store.library.openConflicts().isEmpty)
        #expect(try await store.library.conflict(conflict.id).resolution == .mergedAutomatically)
        let article = try await store.library.article(id)
        #expect(article.body == Self.remote.body && article.tags == ["a", "mine"] && article.status == .ready)
        #expect(article.syncState == .modified)
        let operations = try operations(store, id)
        #expect(operations.count == 1 && operations[0].0 == .put && operations[0].1 == .revision && operations[0].2 == 5)
        #expect(try store.outbox(of: id).first?.payload?.body == Self.remote.body)
    }

    /// The editor saves through its own context with ``LocalChanges``: the same rule applies.
    @Test func theEditorsSaveSettlesThroughLocalChanges() async throws {
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: "one\nMY two\nthree\n")
        }
        try store.inspect { context in
            let article = try #require(try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id)).first)
            article.body = Self.remote.body
            try LocalChanges.record(in: context)
            try context.save()
        }
        #expect(try await store.library.conflict(conflict.id).resolution == .mergedAutomatically)
    }

    @Test func changesThatLeaveTheConflictOpenShowInIt() async throws {
        let (store, id, conflict) = try await conflicted { library, id in
            try await library.editArticle(id, body: "one\nMY two\nthree\n")
        }
        try await store.library.createFolder(named: "Work")
        try await store.library.moveArticles([id], toFolder: "Work")
        try await store.library.tagArticles([id], with: "later")
        let open = try #require(try await store.library.openConflicts().first)
        #expect(open.id == conflict.id && open.local?.folder == "Work" && open.local?.tags == ["a", "later"])
        #expect(try await store.library.article(id).syncState == .conflicted)
    }

    // MARK: What each choice fits

    @Test func everyChoiceIsCheckedAgainstTheLiveKind() {
        let text = ArticleContent(title: "T", body: "b")
        let sides: [ConflictKind: ConflictSides] = [
            .editedOnBothSides: ConflictSides(base: nil, current: text, isDeletedHere: false, remote: text, localAtDetection: nil),
            .deletedHere: ConflictSides(base: nil, current: text, isDeletedHere: true, remote: text, localAtDetection: nil),
            .deletedOnServer: ConflictSides(base: nil, current: text, isDeletedHere: false, remote: nil, localAtDetection: nil),
            .deletedOnBothSides: ConflictSides(base: nil, current: text, isDeletedHere: true, remote: nil, localAtDetection: nil),
        ]
        let fits: [ConflictKind: Set<ConflictResolution.Kind>] = [
            .editedOnBothSides: [.keepMine, .keepTheirs, .keepBoth, .merged],
            .deletedHere: [.keepMine, .keepTheirs, .merged],
            .deletedOnServer: [.keepMine, .keepTheirs, .merged, .restoreMine, .acceptDelete],
            .deletedOnBothSides: [.keepTheirs, .merged, .restoreMine, .acceptDelete],
        ]
        let choices: [ConflictResolution] = [.keepMine, .keepTheirs, .keepBoth, .merged(text), .restoreMine, .acceptDelete]
        for (kind, sides) in sides {
            #expect(sides.kind == kind)
            for choice in choices {
                let refusal = ConflictResolver.refusal(of: choice, sides: sides, remoteRevision: 5, articleExists: true)
                #expect((refusal == nil) == fits[kind]!.contains(choice.kind), "\(kind) \(choice): \(refusal.map(\.text.english) ?? "fits")")
            }
        }
        let deletedHere = ConflictResolver.refusal(of: .keepBoth, sides: sides[.deletedHere]!, remoteRevision: 5, articleExists: true)
        #expect(deletedHere?.text.english.contains("delete it anyway (keep mine) or keep the server's version (keep theirs)") == true)
    }

    @Test func keepTheirsKeepsACopyOfTextNoneOfTheOtherVersionsHolds() {
        let base = ArticleContent(title: "T", body: "base")
        let detected = ArticleContent(title: "T", body: "mine at detection")
        let theirs = ArticleContent(title: "T", body: "theirs")
        func sides(_ current: ArticleContent?, deletedHere: Bool = false, remote: ArticleContent? = theirs) -> ConflictSides {
            ConflictSides(base: base, current: current, isDeletedHere: deletedHere, remote: remote, localAtDetection: detected)
        }
        #expect(!sides(detected).keepTheirsKeepsCopy, "what the writer was shown at detection")
        #expect(!sides(base).keepTheirsKeepsCopy)
        #expect(!sides(theirs).keepTheirsKeepsCopy)
        #expect(!sides(nil).keepTheirsKeepsCopy, "gone: nothing to copy")
        #expect(sides(ArticleContent(title: "T", body: "edited later")).keepTheirsKeepsCopy)
        #expect(sides(ArticleContent(title: "T", body: "edited later"), deletedHere: true).keepTheirsKeepsCopy, "kept in the trash")
        #expect(!sides(ArticleContent(title: "T", body: "edited later"), remote: nil).keepTheirsKeepsCopy,
                "a deletion on the server moves the article, text and all, to the trash")
        #expect(!sides(ArticleContent(title: "T", body: "mine at detection", tags: ["new"])).keepTheirsKeepsCopy, "tags are no text")
    }

    // MARK: Edit against a revision

    @Test func anEditAgainstARevisionRefusesAChangeInBetween() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Notes", body: "one\n"))
        let read = article.localRevision
        let edited = try await store.library.editArticle(article.id, body: "one\ntwo\n", ifRevision: read)
        #expect(edited.localRevision == read + 1)
        await #expect(throws: LibraryError.revisionChanged(article: article.id, expected: read, current: read + 1)) {
            try await store.library.editArticle(article.id, body: "one\nthree\n", ifRevision: read)
        }
        #expect(try await store.library.article(article.id).body == "one\ntwo\n", "nothing saved")
        let error = LibraryError.revisionChanged(article: article.id, expected: read, current: read + 1)
        #expect(error.description.contains("is at revision \(read + 1) now, not \(read)"))
    }
}
