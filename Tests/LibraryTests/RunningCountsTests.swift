import Foundation
import ObjectGraph
import Platform
import SyncProtocol
import Synchronization
import Testing
@testable import Library

/// The sidebar's counts kept up to date change by change (``RunningCounts``) equal a full count
/// (``LibraryCounts/read(in:)``) after every change of a random sequence, whichever way the
/// change arrives: a save's (or batch's) change set, or the change another context reports as it
/// merges it, as the window's view context does (several at once, when changes wait to be
/// applied together).
@Suite struct RunningCountsTests {
    /// One random change of the library in `context` (saved by the caller); returns its name, and
    /// for a batch operation (which saves by itself) its change set.
    private static func randomChange(
        in context: ManagedObjectContext, at now: Date, random: inout SeededGenerator, batch: inout ChangeSet?
    ) throws -> String {
        let articles = try context.fetch(FetchRequest<StoredArticle>())
        let folders = try context.fetch(FetchRequest<Folder>()).map(\.name)
        let tags = try LibraryCounts.tags(in: context).map(\.name)
        let some = articles.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }.map(\.id)
        let tagName = (tags + ["sea", "field", "town"]).randomElement(using: &random)!
        switch Int.random(in: 0..<14, using: &random) {
        case 0:
            try ArticleEdits.tag(some, with: tagName, in: context, at: now)
            return "tag \(some.count) with \(tagName)"
        case 1:
            try ArticleEdits.untag(some, from: tagName, in: context, at: now)
            return "untag \(some.count) from \(tagName)"
        case 2:
            let folder = (folders + [nil]).randomElement(using: &random)!
            try ArticleEdits.move(some, toFolder: folder, in: context, at: now)
            return "move \(some.count) to \(folder ?? "no folder")"
        case 3:
            let status = ArticleStatus.allCases.randomElement(using: &random)!
            try ArticleEdits.setStatus(status, for: some, in: context, at: now)
            return "status \(status) for \(some.count)"
        case 4:
            try ArticleEdits.setFavorite(Bool.random(using: &random), for: some, in: context, at: now)
            return "favorite for \(some.count)"
        case 5:
            for article in articles where some.contains(article.id) { article.trashed = now }
            try LocalChanges.record(in: context, at: now)
            return "trash \(some.count)"
        case 6:
            for article in articles where some.contains(article.id) { article.trashed = nil }
            try LocalChanges.record(in: context, at: now)
            return "restore \(some.count)"
        case 7:
            guard let article = articles.randomElement(using: &random) else { return "nothing to delete" }
            context.delete(article)
            return "delete an article for good"
        case 8, 9:
            let article = StoredArticle(context: context)
            article.id = UUID()
            article.created = now
            article.updated = now
            let chosenTags = ["sea", "field", "town"].filter { _ in Bool.random(using: &random) }
            try article.setContent(ArticleContent(
                title: "New", body: "Text.\n", folder: (folders + [nil, "Letters"]).randomElement(using: &random)!,
                tags: chosenTags, status: ArticleStatus.allCases.randomElement(using: &random)!,
                isFavorite: Bool.random(using: &random)), at: now)
            try LocalChanges.record(in: context, at: now)
            return "new article"
        case 10:
            // A batch update: the rows change in SQL, no object is loaded.
            var request = BatchUpdateRequest<StoredArticle>(predicate: \.status == .draft)
            request.set(\.isFavorite, to: Bool.random(using: &random))
            request.resultType = .objectIDs
            batch = try context.execute(request).changes
            return "batch favorite of the drafts"
        case 11:
            guard let name = folders.randomElement(using: &random) else { return "no folder to delete" }
            _ = try ArticleEdits.deleteFolder(named: name, in: context, at: now)
            return "delete folder \(name)"
        case 12:
            guard let name = tags.randomElement(using: &random), let tag = try LibraryNames.tag(named: name, in: context) else {
                return "no tag to delete"
            }
            context.delete(tag)
            return "delete tag \(name)"
        default:
            let name = ["Essays", "Notes", "Letters"].randomElement(using: &random)!
            if !folders.contains(name) { try ArticleEdits.createFolder(named: name, in: context, at: now) }
            return "create folder \(name)"
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func runningCountsEqualAFullCountAfterEveryRandomChange(seed: UInt64) async throws {
        let store = try TemporaryLibrary()
        var random = SeededGenerator(seed: seed)
        try await store.library.createFolder(named: "Essays")
        for index in 0..<12 {
            try await store.library.createArticle(ArticleContent(
                title: "Article \(index)", body: "Body \(index).\n", folder: index % 3 == 0 ? "Essays" : nil,
                tags: index % 2 == 0 ? ["sea"] : [], status: index % 4 == 0 ? .ready : .draft, isFavorite: index % 5 == 0))
        }
        let running = RunningCounts(library: store.library)
        // Counted in full until every article's places are read.
        #expect(try await running.counts(after: CountChange()).counts == store.library.counts())
        try await running.prepare()
        // A context that merges every change, as the window's view context does.
        let merging = store.library.container.newBackgroundContext()
        var merged = CountChange()
        let observation = merging.addObserver { notification in
            if case .objectsDidChange(let change) = notification { merged.formUnion(CountChange(change)) }
        }
        defer { observation.cancel() }
        var waiting = CountChange()
        var applied = (fromSaves: 0, fromMerges: 0, together: 0)

        for step in 0..<80 {
            var name = ""
            var batch: ChangeSet?
            let saved = try store.inspect { context in
                name = try Self.randomChange(in: context, at: Date(), random: &random, batch: &batch)
                return try context.save()
            }
            let save = batch ?? saved
            if Bool.random(using: &random) {
                merged = CountChange()
                merging.performAndWait { merging.mergeChanges(fromContextDidSave: save) }
                waiting.formUnion(merged)
                applied.fromMerges += 1
            } else {
                waiting.formUnion(CountChange(save))
                applied.fromSaves += 1
            }
            // Now and then the changes wait and are applied together with the next.
            if Int.random(in: 0..<4, using: &random) == 0 && step < 79 {
                applied.together += 1
                continue
            }
            let counts = try await running.counts(after: waiting).counts
            waiting = CountChange()
            let full = try await store.library.counts()
            #expect(counts == full, "step \(step): \(name)")
            if counts != full { return }
        }
        #expect(applied.fromSaves > 10 && applied.fromMerges > 10 && applied.together > 5)
    }

    @Test func aChangeThatInvalidatesEverythingCountsAgainInFull() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Tide", body: "Low.\n", tags: ["sea"]))
        let running = RunningCounts(library: store.library)
        try await running.prepare()
        // A change the counts were not told about (another program, its change set lost):
        // applying an unrelated change leaves it uncounted, a full count takes it in.
        try await store.library.setFavorite(true, for: [article.id])
        #expect(try await running.counts(after: CountChange()).counts.favorites == 0)
        #expect(try await running.counts(after: .everything).counts.favorites == 1)
        #expect(try await running.counts(after: CountChange()).counts == store.library.counts())
        try await running.prepare()
        #expect(try await running.counts(after: CountChange()).counts == store.library.counts())
    }

    /// Reading every article's places only prepares for later: it stops at its next index once
    /// the library closes (a quit right after opening a million articles waited 6–10 s for it).
    @Test func readingThePlacesStopsWhenTheLibraryCloses() async throws {
        let store = try TemporaryLibrary()
        try await store.library.createArticle(ArticleContent(title: "Tide", body: "Low.\n", folder: "Essays", tags: ["sea"]))
        let context = store.library.container.newBackgroundContext()
        let steps = Mutex(0)
        #expect(throws: CancellationError.self) {
            try context.performAndWait {
                _ = try CountLedger(reading: context) {
                    let step = steps.withLock { $0 += 1; return $0 }
                    if step == 3 { throw CancellationError() }
                }
            }
        }
        #expect(steps.withLock { $0 } == 3, "no index read after it said stop")
        let full = try context.performAndWait { try CountLedger(reading: context) { try store.library.stopIfClosing() } }
        #expect(try await full.counts == store.library.counts())

        store.library.close()
        #expect(throws: CancellationError.self) { try store.library.stopIfClosing() }
    }

    @Test func readingsCarryIncreasingGenerations() async throws {
        let store = try TemporaryLibrary()
        let running = RunningCounts(library: store.library)
        let first = try await running.counts(after: CountChange())
        let second = try await running.counts(after: CountChange())
        #expect(second.generation > first.generation)
    }
}
