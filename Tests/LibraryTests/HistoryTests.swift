import Foundation
import ObjectGraph
import Synchronization
import SyncProtocol
import Testing
@testable import Library
@testable import Transfer

/// Version history: versions recorded when a session ends and before text is replaced, thinned by
/// age with an injected clock, bounded in size, and restored as a normal edit.
@Suite struct HistoryTests {
    /// A clock a test moves by hand.
    final class FakeClock: Sendable {
        private let seconds: Mutex<TimeInterval>
        init(_ start: Date) { seconds = Mutex(start.timeIntervalSince1970) }
        var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
        func advance(_ interval: TimeInterval) { seconds.withLock { $0 += interval } }
    }

    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func theSaveThatEndsASessionCommitsTheTextAndItsVersionInOneTransaction() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Tide", body: "Low.\n"))
        let objectID = try store.inspect { context in try LibraryNames.article(article.id, in: context).objectID }
        // The editor's session end: the text, its outbox operation and its version, one save (one
        // SQLite transaction: a crash or kill leaves all of it or none).
        let save = try store.inspect { context in
            try context.existingObject(with: objectID, as: StoredArticle.self).body = "High.\n"
            try LocalChanges.record(in: context)
            #expect(try Library.recordEndOfEditingSession(of: objectID, in: context))
            return try context.save()
        }
        #expect(save.changedKeys[objectID]?.contains("body") == true)
        #expect(save.inserted.contains { $0.entityName == "ArticleVersion" })
        let versions = try await store.library.history(of: article.id)
        #expect(versions.count == 1)
        #expect(try await store.library.version(versions[0].id).body == "High.\n")

        // `quire edit`'s path: the same in one library operation; the same text again records nothing.
        try await store.library.editArticle(article.id, body: "Higher.\n", endingSession: true)
        try await store.library.editArticle(article.id, body: "Higher.\n", endingSession: true)
        let after = try await store.library.history(of: article.id)
        #expect(after.count == 2)
        #expect(try await store.library.version(after[0].id).body == "Higher.\n")
        #expect(try store.outbox(of: article.id).count == 1)
    }

    @Test func anEditingSessionRecordsTheSavedTextOnceAndChangesNothingElse() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Notes", body: "first\n"))
        let recorded = try #require(try await store.library.endEditingSession(of: article.id))
        #expect(recorded.source == .edited && recorded.title == "Notes" && recorded.wordCount == 1)
        #expect(try await store.library.endEditingSession(of: article.id) == nil, "the same text is not recorded twice")
        #expect(try await store.library.article(article.id).localRevision == article.localRevision)
        #expect(try store.outbox(of: article.id).count == 1)
        try await store.library.editArticle(article.id, body: "first\nsecond\n")
        #expect(try await store.library.endEditingSession(of: article.id)?.wordCount == 2)
        let history = try await store.library.history(of: article.id)
        #expect(history.map(\.wordCount) == [2, 1], "newest first")
        #expect(try await store.library.version(history[1].id).body == "first\n")
    }

    @Test func restoringAVersionIsOneEditWithOneOutboxOperation() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Draft", body: "yesterday's text\n"))
        try await store.library.endEditingSession(of: article.id)
        try store.markSynced(article.id, at: 1, content: article.content)
        try await store.library.editArticle(article.id, title: "Draft 2", body: "today's text\n")
        let yesterday = try #require(try await store.library.history(of: article.id).last)

        let restored = try await store.library.restoreVersion(yesterday.id)
        #expect(restored.title == "Draft" && restored.body == "yesterday's text\n")
        let outbox = try store.outbox(of: article.id)
        #expect(outbox.count == 1 && outbox[0].payload?.body == "yesterday's text\n")
        // The replaced text became a version; the restored one is untouched.
        let history = try await store.library.history(of: article.id)
        #expect(history.map(\.source) == [.beforeRestore, .edited])
        #expect(try await store.library.version(history[0].id).body == "today's text\n")
        #expect(try await store.library.version(yesterday.id).body == "yesterday's text\n")
        // Restoring the text the article has changes nothing.
        #expect(try await store.library.restoreVersion(yesterday.id).localRevision == restored.localRevision)
        // And the restore can be undone the same way.
        #expect(try await store.library.restoreVersion(history[0].id).body == "today's text\n")
    }

    @Test func aVersionIDMayBeShortened() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "T", body: "one\n"))
        let version = try #require(try await store.library.endEditingSession(of: article.id))
        let prefix = String(version.id.uuidString.lowercased().prefix(8))
        #expect(try await store.library.versionID(matching: prefix, of: article.id) == version.id)
        await #expect(throws: HistoryError.noVersionMatching("0000zz", article: article.id)) {
            try await store.library.versionID(matching: "0000zz", of: article.id)
        }
    }

    @Test func aConflictResolutionRecordsTheTextItReplaces() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Shared", body: "mine\n"))
        let conflict = try await store.library.recordConflict(
            articleID: article.id, base: ArticleContent(title: "Shared", body: "base\n"), local: article.content,
            remote: ArticleContent(title: "Shared", body: "theirs\n"), baseRevision: 1, remoteRevision: 2)
        try await store.library.resolveConflict(conflict.id, .keepTheirs)
        let history = try await store.library.history(of: article.id)
        #expect(history.first?.source == .beforeConflict)
        #expect(try await store.library.version(try #require(history.first).id).body == "mine\n")
    }

    /// A sync's first pull records one version of each article it brings, with the body's word
    /// count (taken from the article's derived fields, not counted again); a later remote change
    /// of the text records a version and thins the older ones as an edit does, and a change that
    /// leaves the text as it is records none.
    @Test func pulledArticlesRecordAVersionEachAndLaterRemoteChangesThin() async throws {
        let store = try TemporaryLibrary()
        let ids = (0..<4).map { _ in UUID() }
        func take(_ id: UUID, _ body: String, status: ArticleStatus? = nil, revision: Int64, at now: Date) throws {
            try store.inspect { context in
                let payload = ArticlePayload(title: "Pulled", body: body, status: status)
                let remote = RemoteVersion(Article(id: id.uuidString.lowercased(), revision: revision, updatedAt: now, content: payload))
                #expect(try Reconciler(context: context, now: now).take(remote, for: try ArticleSyncRecord.load(id, in: context)) == .taken)
                try context.save()
            }
        }
        try store.inspect { context in
            let reconciler = Reconciler(context: context, now: Self.start)
            let records = try ArticleSyncRecord.load(ids, in: context)
            for (index, id) in ids.enumerated() {
                let body = Array(repeating: "word", count: index + 1).joined(separator: " ") + "\n"
                let remote = RemoteVersion(Article(
                    id: id.uuidString.lowercased(), revision: 1, updatedAt: Self.start, content: ArticlePayload(title: "Pulled", body: body)))
                _ = try reconciler.take(remote, for: try #require(records[id]))
            }
            try context.save()
        }
        for (index, id) in ids.enumerated() {
            let history = try await store.library.history(of: id)
            #expect(history.map(\.wordCount) == [index + 1] && history.map(\.source) == [.synced])
            #expect(try store.inspect { try $0.fetch(FetchRequest<StoredArticle>(predicate: \.id == id)).first?.wordCount } == index + 1)
        }
        // Two changes within one hour two hours later, then one two days after the first pull:
        // the hour's earlier version ages out of the last day and goes, the pull's stays.
        let first = ids[0]
        try take(first, "two words\n", revision: 2, at: Self.start.addingTimeInterval(7_200))
        try take(first, "now three words\n", revision: 3, at: Self.start.addingTimeInterval(7_260))
        try take(first, "now three words\n", status: .published, revision: 4, at: Self.start.addingTimeInterval(7_300))
        try take(first, "four words at last\n", revision: 5, at: Self.start.addingTimeInterval(2 * 86_400))
        let history = try await store.library.history(of: first)
        #expect(history.map(\.wordCount) == [4, 3, 1], "the version of 7,200 s thinned; the status change recorded none")
        #expect(history.map(\.recorded) == [2 * 86_400, 7_260, 0].map { Self.start.addingTimeInterval($0) })
    }

    @Test func emptyingTheTrashDeletesTheHistory() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Gone", body: "text\n"))
        try await store.library.endEditingSession(of: article.id)
        try await store.library.moveToTrash([article.id])
        _ = try await store.library.emptyTrash()
        #expect(try store.inspect { try $0.count(for: FetchRequest<ArticleVersion>()) } == 0)
    }

    /// A writer's year: sessions at irregular hours every day, with the library's clock moved by
    /// hand. After each session the store holds exactly what thinning keeps, and at the end every
    /// tier holds what it promises: every version of the last day, at most one an hour before
    /// that for a week, one a day for a month, one a week before, and no period that had a version
    /// lost all of them.
    @Test func thinningOverASimulatedYear() async throws {
        let store = try TemporaryLibrary()
        let clock = FakeClock(Self.start)
        store.library.clock = { clock.now }
        let article = try await store.library.createArticle(ArticleContent(title: "Year", body: "day 0\n"))
        var everRecorded: [Date] = []
        var session = 0
        // Four sessions a day for the last two weeks (so that the hourly and daily tiers have
        // company), one a day before that; times wander so that periods fill unevenly.
        while clock.now < Self.start.addingTimeInterval(365 * 86_400) {
            let remaining = Self.start.addingTimeInterval(365 * 86_400).timeIntervalSince(clock.now)
            clock.advance(remaining < 14 * 86_400 ? 6 * 3_600 + Double(session % 5) * 600 : 86_400 + Double(session % 7) * 1_800)
            session += 1
            try await store.library.editArticle(article.id, body: "session \(session)\n")
            if try await store.library.endEditingSession(of: article.id) != nil { everRecorded.append(clock.now) }
        }
        let now = clock.now
        let kept = try await store.library.history(of: article.id).map(\.recorded).sorted()
        #expect(kept.count < everRecorded.count / 3, "thinned: \(kept.count) of \(everRecorded.count)")
        #expect(kept.last == everRecorded.last)
        // The store kept what the pure thinning keeps when it runs as each version is added.
        var model: [Date] = []
        for date in everRecorded {
            let candidates = model + [date]
            model = HistoryThinning.standard.kept(recorded: candidates, now: date).sorted().map { candidates[$0] }
        }
        #expect(kept == model)
        func period(_ length: TimeInterval, _ date: Date) -> Double { (date.timeIntervalSince1970 / length).rounded(.down) }
        let age = { (date: Date) in now.timeIntervalSince(date) }
        #expect(kept.filter { age($0) < 86_400 } == everRecorded.filter { age($0) < 86_400 })
        for (range, length) in [(86_400.0..<604_800.0, 3_600.0), (604_800.0..<2_592_000.0, 86_400.0), (2_592_000.0..<1e12, 604_800.0)] {
            let keptHere = kept.filter { range.contains(age($0)) }
            #expect(Set(keptHere.map { period(length, $0) }).count == keptHere.count, "at most one per period")
            // Every period wholly inside the tier that had a version keeps one.
            let whole = everRecorded.filter { date in
                let start = period(length, date) * length
                return range.contains(now.timeIntervalSince1970 - start) && range.contains(now.timeIntervalSince1970 - start - length + 1)
            }
            #expect(Set(whole.map { period(length, $0) }).isSubset(of: Set(keptHere.map { period(length, $0) })), "every period keeps one")
        }
    }

    @Test func theHistoryStaysWithinItsSizeKeepingEachArticlesLatestVersion() async throws {
        let store = try TemporaryLibrary()
        let clock = FakeClock(Self.start)
        store.library.clock = { clock.now }
        var ids: [UUID] = []
        for index in 0..<3 { ids.append(try await store.library.createArticle(ArticleContent(title: "A\(index)", body: "v0\n")).id) }
        for round in 1...5 {
            for id in ids {
                clock.advance(60)
                try await store.library.editArticle(id, body: String(repeating: "word ", count: 100) + "\(round)\n")
                try await store.library.endEditingSession(of: id)
            }
        }
        store.library.historySizeLimit = HistorySizeLimit(fractionOfLibrary: 0, bytes: 1_500)
        #expect(try await store.library.trimHistory() > 0)
        let size = try store.inspect { try VersionHistory.totalSize(in: $0) }
        #expect(size <= 1_550, "within the limit but for the latest versions (\(size))")
        for id in ids {
            let latest = try #require(try await store.library.history(of: id).first)
            #expect(try await store.library.version(latest.id).body.hasSuffix("5\n"))
        }
        #expect(HistorySizeLimit.standard.bytes(forLibraryOf: 10_000_000_000) == 1_000_000_000)
        #expect(HistorySizeLimit.standard.bytes(forLibraryOf: 1_000_000) == 200_000_000)
        // A store no larger than the limit's bytes holds a history within it, unread.
        let limit = HistorySizeLimit(fractionOfLibrary: 0.5, bytes: 1_500)
        #expect(limit.holdsAnyHistory(inStoreOf: 1_500))
        #expect(!limit.holdsAnyHistory(inStoreOf: 1_501))
    }

    @Test func anArchiveWrittenWithItsHistoryBringsItBack() async throws {
        let source = try TemporaryLibrary()
        let article = try await source.library.createArticle(ArticleContent(title: "Kept", body: "one\n"))
        try await source.library.endEditingSession(of: article.id)
        try await source.library.editArticle(article.id, body: "one\ntwo\n")
        try await source.library.endEditingSession(of: article.id)
        let history = try await source.library.history(of: article.id)

        let plain = source.folder.appending("plain.json")
        let withHistory = source.folder.appending("history.json")
        let options = try await source.library.archiveOptions()
        try await source.library.export(.library, with: ExportJob(format: .jsonArchive(options), destination: plain))
        try await source.library.export(
            .library, with: ExportJob(format: .jsonArchive(options), destination: withHistory), includingHistory: true)
        #expect(!String(decoding: try Data(contentsOf: plain), as: UTF8.self).contains("\"history\""), "only on request")

        let target = try TemporaryLibrary()
        for _ in 0..<2 {
            let scan = try await ImportScan.read([withHistory])
            let plan = ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .replace)
            try await target.library.apply(plan)
        }
        let imported = try await target.library.history(of: article.id)
        #expect(imported.map(\.id) == history.map(\.id), "every version once, even imported twice")
        #expect(imported.map(\.recorded) == history.map(\.recorded) && imported.map(\.source) == history.map(\.source))
        #expect(try await target.library.version(imported[1].id).body == "one\n")
    }

    @Test func thinningKeepsTheLatestOfEachPeriodAndEveryVersionOfTheLastDay() {
        let now = Self.start
        let hour = 3_600.0
        let recorded = [
            now.addingTimeInterval(-10), now.addingTimeInterval(-20), // last day: both kept
            now.addingTimeInterval(-30 * hour - 100), now.addingTimeInterval(-30 * hour - 200), // one hour
            now.addingTimeInterval(-10 * 86_400 - 50), now.addingTimeInterval(-10 * 86_400 - 60), // one day
            now.addingTimeInterval(10), // from a clock set back: kept
        ]
        let kept = HistoryThinning.standard.kept(recorded: recorded, now: now)
        #expect(kept.contains(0) && kept.contains(1) && kept.contains(6))
        #expect(kept.intersection([2, 3]).count == 1 && kept.intersection([4, 5]).count == 1)
    }
}
