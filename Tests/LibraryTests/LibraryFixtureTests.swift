import CSQLite
import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library
import QuireTestSupport

/// Every committed library fixture, migrated (on a copy) to the current schema: every row of every
/// entity keeps every value, field by field, and the new fields are what the stages compute.
@Suite struct LibraryFixtureTests {
    @Test func theV1FixtureHoldsItsEdgeCases() throws {
        let folder = try TemporaryFolder()
        let dump = try StoreDump(LibraryFixtures.copy(LibraryFixtures.v1, into: folder), schema: LibrarySchema.v1)
        let articles = Array(dump.entities["Article"]!.values)
        #expect(articles.contains { $0["body"] == "String " && $0["title"] == "String " }, "an empty article")
        #expect(articles.contains { ($0["body"]?.utf8.count ?? 0) > 250_000 }, "a very large body")
        #expect(articles.contains { $0["title"]?.contains("日本語") == true } && articles.contains { $0["title"]?.contains("🎉") == true })
        #expect(articles.contains { $0["trashed"] != "nil" }, "a trashed article")
        #expect(articles.contains { $0["folder"] != "nil" } && articles.contains { $0["tags"] != "" })
        #expect(Set(articles.map { $0["syncState"] }) == ["String localOnly", "String synced", "String modified", "String conflicted"])
        #expect(dump.entities["DraftRecovery"]!.count >= 2)
        #expect(dump.entities["Conflict"]!.values.contains { $0["resolved"] == "nil" })
        #expect(dump.entities["Conflict"]!.values.contains { $0["resolved"] != "nil" })
        let states = Set(dump.entities["SyncOperation"]!.values.map { $0["state"] })
        #expect(states.isSuperset(of: ["String pending", "String acknowledged", "String waitingRetry", "String terminalFailure"]))
        #expect(dump.entities["SyncOperation"]!.values.contains { $0["change"] == "String delete" })
    }

    @Test(arguments: LibraryFixtures.all) func migratesToTheCurrentSchemaKeepingEveryValue(_ fixture: URL) async throws {
        let folder = try TemporaryFolder()
        let url = try LibraryFixtures.copy(fixture, into: folder)
        let plan = LibrarySchema.migrationPlan(batchSize: 5)
        let version = try #require(try PersistentStore.metadata(at: url)).schema
        let schema = try #require(plan.schemas.first { $0.checksum == version.checksum })
        let before = try StoreDump(url, schema: schema)

        // A default language no fixture uses, so that the stage from V3 is seen to give it.
        var options = LibraryOpenOptions()
        options.defaultLanguage = "fr_CA"
        let library = try await Library.open(at: url, options: options)
        #expect(library.upgrade?.stagesRun == plan.schemas.count - 1 - plan.schemas.firstIndex { $0.checksum == version.checksum }!)
        #expect(library.container.persistentStore.metadata.schema.checksum == LibrarySchema.current.checksum)
        let after = try StoreDump(url, schema: LibrarySchema.current)
        #expect(after.restricted(to: schema) == before, "\(after.restricted(to: schema).differences(from: before))")

        // The new fields, article by article, through the model classes.
        let articles = try await library.read { context in
            try context.fetch(FetchRequest<StoredArticle>()).map { ($0.id, $0.subtitle, $0.wordCount, $0.readingMinutes, $0.snapshot) }
        }
        // V4: every article from before has the default language; the personal dictionary starts empty.
        if version.version < 4 {
            #expect(articles.allSatisfy { $0.4.language == "fr_CA" })
            #expect(try await library.personalWords().isEmpty)
        }
        #expect(articles.count == before.entities["Article"]?.count)
        for (_, subtitle, words, minutes, _) in articles {
            if version.version < 2 { #expect(subtitle == nil) }
            #expect(minutes == ReadingTime.minutes(forWords: words))
        }
        if version.version == 2 {
            #expect(Set(articles.compactMap(\.1)) == ["A subtitle", "Sous-titre accentué 🎉"], "V2's subtitles kept")
        }
        #expect(articles.contains { $0.3 > 10 }, "the long article reads for more than ten minutes")
        if version.version == 3 {
            #expect(before.entities["ArticleVersion"]?.isEmpty == false, "V3's fixture holds a history")
        }
        // Everything the writer had still works: drafts, conflicts, the outbox, search, editing.
        #expect(try await library.unrecoveredDrafts().count == 2)
        #expect(try await library.openConflicts().count == 2)
        #expect(try await library.articles(matching: ArticleQuery(searchText: "survives upgrade")).count == 1)
        #expect(try await library.articles(matching: ArticleQuery(searchText: "离线写作")).count == 2)
        let edited = try await library.editArticle(articles[0].0, body: String(repeating: "word ", count: 500))
        let reading = try await library.read { context in
            try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == edited.id)).first?.readingMinutes
        }
        #expect(reading == 3)
        // V3: the history of a library from before starts empty (V3's own is kept) and records
        // from the first session on.
        let versions = try await library.read { try $0.count(for: FetchRequest<ArticleVersion>()) }
        if version.version < 3 { #expect(versions == 0) } else { #expect(versions == before.entities["ArticleVersion"]?.count) }
        let first = try #require(try await library.endEditingSession(of: edited.id))
        #expect(try await library.history(of: edited.id).first == first)
        #expect(try await library.articles(matching: ArticleQuery(searchText: "tag:unicode")).count >= 1)
        try library.container.persistentStore.checkFullTextIndexes()
        // V5: a library from before has no attachments, and takes them (a large one in a file).
        if version.version < 5 { #expect(try await library.read { try $0.count(for: FetchRequest<StoredAttachment>()) } == 0) }
        let image = AttachmentSamples.png(bytes: 100_000)
        let added = try await library.addAttachment(to: edited.id, fileName: "figure.png", data: image)
        #expect(try await library.attachmentData(sha256: added.sha256, of: edited.id) == image)
        #expect(try library.container.persistentStore.externalReferences().map(\.digest) == [added.sha256])
        let check = LibraryCheck.run(url)
        #expect(check.classification == .ok && check.attachmentProblems.isEmpty)
        if version.version == 5 {
            #expect(before.entities["Attachment"]?.count == 1, "V5's fixture holds an attachment, kept (compared above)")
        }
        // V6: the index keeps every word's first letter, built again from the articles' text: a
        // one-letter search finds what the words do.
        #expect(try Self.fullTextTableSQL(at: url).contains("prefix='1'"))
        let byLetter = try await library.articles(matching: ArticleQuery(searchText: "o")).map(\.title)
        #expect(byLetter.contains("Only whitespace") && byLetter.contains("Only code") && byLetter.contains("Edited offline"))
        #expect(try await library.articles(matching: ArticleQuery(searchText: "離")).isEmpty)
        #expect(try await library.articles(matching: ArticleQuery(searchText: "离")).count == 2, "a CJK run is found by its start")
    }

    /// The SQL that created the articles' full-text table in the library at `url`.
    private static func fullTextTableSQL(at url: URL) throws -> String {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return "" }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        sqlite3_prepare_v2(handle, "SELECT sql FROM sqlite_master WHERE name = 'og_fts_Article'", -1, &statement, nil)
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return "" }
        return String(cString: text)
    }

    @Test func readingTimesRoundUp() {
        #expect(ReadingTime.minutes(forWords: 0) == 0)
        #expect(ReadingTime.minutes(forWords: 1) == 1)
        #expect(ReadingTime.minutes(forWords: 230) == 1)
        #expect(ReadingTime.minutes(forWords: 231) == 2)
        #expect(ReadingTime.minutes(forWords: 2300) == 10)
    }
}
