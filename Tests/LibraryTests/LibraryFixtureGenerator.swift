import CSQLite
import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library

/// Writes a library fixture with the code of this build: the library every migration test starts
/// from (`Tests/LibraryTests/Fixtures/library-vN.quire`, N = `LibrarySchema.current.version`).
///
/// Run only on purpose, when a schema version ships:
///
///     QUIRE_WRITE_LIBRARY_FIXTURE=Tests/LibraryTests/Fixtures/library-v2.quire \
///         swift test --filter LibraryFixtureGenerator
///
/// Everything goes through the library's own operations (and, for the sync worker's states, through
/// the rows the worker writes), so the file is what a writer's library of that version holds. The
/// edge cases: empty and very large bodies, Unicode titles, subtitles (since V2), version history (since V3), languages and the personal dictionary (since V4), an attachment (since V5), folders and tags, favourites and every
/// status, trashed articles, pending, retrying, failed and acknowledged outbox operations, synced
/// articles with their merge base, open and resolved conflicts, draft recoveries, a sync cursor
/// and a lease. The file is closed cleanly (its write-ahead log checkpointed), as a library is
/// after Quire quits.
@Suite struct LibraryFixtureGenerator {
    static let outputVariable = "QUIRE_WRITE_LIBRARY_FIXTURE"
    static var output: String? { ProcessInfo.processInfo.environment[outputVariable] }

    @Test(.enabled(if: output != nil, "entry point of the fixture generator: runs when QUIRE_WRITE_LIBRARY_FIXTURE names the file"))
    func writeFixture() async throws {
        let url = URL(fileURLWithPath: try #require(Self.output)).standardizedFileURL
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try await Self.fill(Library(url: url))
        // The library is closed now; fold its write-ahead log into the file.
        var handle: OpaquePointer?
        #expect(sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    /// The titles that stress sorting, searching, folding and file names.
    static let unicodeTitles = [
        "Café crème — naïve résumé", "Cafe\u{301} decomposed", "日本語のタイトル", "中文标题：离线写作",
        "שלום עולם — RTL", "مرحبا بالعالم", "Emoji 🎉👩🏽‍💻 party", "Ελληνικά και Русский", "\u{301}leading combining mark",
        "Zero\u{200B}width joiner\u{200D}s", "Trojan \u{202E}gpj.exe", "  padded title  ",
        String(repeating: "Very long title ", count: 30),
    ]

    /// A body of about 300 KB in several scripts, with Markdown and long lines.
    static let largeBody: String = {
        var lines: [String] = ["# A very long article", ""]
        for section in 0..<240 {
            lines.append("## Section \(section)")
            lines.append("")
            lines.append(String(repeating: "Offline writing survives every upgrade, line \(section). ", count: 24))
            lines.append("")
            lines.append("- 离线写作 \(section)\n- ελληνικά \(section)\n- emoji 📚 \(section)")
            lines.append("")
            lines.append("```\nlet section = \(section)\n```")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }()

    /// Fills a new library with the fixture's articles, folders, outbox, conflicts and drafts.
    static func fill(_ library: Library) async throws {
        for name in ["Essays", "Research", "Fiction – drafts", "空の フォルダ"] { try await library.createFolder(named: name) }

        @discardableResult func create(_ content: ArticleContent) async throws -> UUID { try await library.createArticle(content).id }
        try await create(ArticleContent(title: "", body: ""))
        let large = try await create(ArticleContent(title: "The long one", body: largeBody, folder: "Research", tags: ["long", "swift"]))
        var titled: [UUID] = []
        for (index, title) in unicodeTitles.enumerated() {
            titled.append(try await create(ArticleContent(
                title: title, body: "# \(title)\n\nBody of article \(index): words, more words.\r\nA CRLF line.\tTabbed.\n",
                folder: index % 3 == 0 ? "Essays" : index % 3 == 1 ? "Fiction – drafts" : nil,
                tags: index % 2 == 0 ? ["unicode", "tag \(index % 4)"] : [],
                status: [.draft, .ready, .published][index % 3], isFavorite: index % 4 == 0)))
        }
        try await create(ArticleContent(title: "Only whitespace", body: "   \n\n\t\n"))
        try await create(ArticleContent(title: "Only code", body: "```\nno words outside code\n```\n"))
        let edited = try await create(ArticleContent(title: "Edited offline", body: "first version\n", folder: "Essays"))
        // Version history (schema V3): two ended editing sessions and a restore of the first.
        try await library.endEditingSession(of: edited)
        try await library.editArticle(edited, body: "first version\nsecond line typed offline\n")
        if let firstSession = try await library.endEditingSession(of: edited) {
            _ = try await library.restoreVersion(try await library.history(of: edited).last?.id ?? firstSession.id)
            try await library.editArticle(edited, body: "first version\nsecond line typed offline\n")
        }

        // Trash: one emptied away (its delete operation stays in the outbox), one still there, one restored.
        let gone = try await create(ArticleContent(title: "Deleted for good", body: "to be emptied\n"))
        try await library.moveToTrash([gone])
        _ = try await library.emptyTrash()
        try await library.moveToTrash([titled[1], titled[5]])
        try await library.restore([titled[5]])

        // Draft recoveries: the editor's text differs from the saved article.
        try await library.saveDraft(for: edited, title: "Edited offline", body: "first version\nsecond line\nthird, unsaved\n")
        try await library.saveDraft(for: titled[2], title: "A retitled draft", body: "Text typed before a crash.\n")

        // The sync worker's states: synced articles with their base, a retrying operation, a
        // terminal failure, an acknowledged operation, an open and a resolved conflict.
        let synced = Array(titled[6...10])
        let (retried, failedID) = (large, titled[3])
        // Subtitles (schema V2): plain, and with accents and an emoji; the rest have none.
        let subtitled = [(titled[0], "A subtitle"), (titled[4], "Sous-titre accentué 🎉")]
        // Languages (schema V4): German, French, and a tag with no dictionary; the rest the default.
        let languages = [(titled[2], "de_DE"), (titled[4], "fr"), (titled[8], "zz_ZZ")]
        try await library.write { context, now in
            for (offset, id) in synced.enumerated() {
                let article = try LibraryNames.article(id, in: context)
                let base = ArticleBase(context: context)
                base.articleID = id
                base.revision = Int64(offset + 3)
                base.content = article.content
                base.serverUpdated = now
                article.serverRevision = Int64(offset + 3)
                article.syncState = .synced
            }
            let operations = try context.fetch(FetchRequest<SyncOperation>(sortDescriptors: [.ascending(\.sequence)]))
            for operation in operations where synced.contains(operation.articleID) {
                operation.state = .acknowledged
                operation.acknowledgedRevision = Int64(synced.firstIndex(of: operation.articleID)! + 3)
            }
            if let retrying = operations.first(where: { $0.articleID == retried }) {
                retrying.state = .waitingRetry
                retrying.attempt = 2
                retrying.nextAttempt = now.addingTimeInterval(90)
                retrying.precondition = .absent
            }
            if let failed = operations.first(where: { $0.articleID == failedID }) {
                failed.state = .terminalFailure
                failed.failure = #"{"status":422,"reason":"title too long"}"#
                failed.precondition = .absent
            }
            for (id, subtitle) in subtitled {
                try LibraryNames.article(id, in: context).subtitle = subtitle
            }
            for (id, language) in languages {
                try LibraryNames.article(id, in: context).language = language
            }
            let cursor = SyncCursor(context: context)
            cursor.server = "https://sync.example.org/writer"
            cursor.cursor = 42
            cursor.lastSynced = now
            let lease = SyncLease(context: context)
            lease.name = "push"
            lease.owner = "process-4242"
            lease.expires = now.addingTimeInterval(30)
        }
        // A local edit of a synced article after the acknowledgement: modified, with a pending put.
        try await library.editArticle(synced[0], body: "edited after the sync\n")
        let base = ArticleContent(title: unicodeTitles[7], body: "base text\n")
        try await library.recordConflict(
            articleID: synced[1], base: base, local: ArticleContent(title: unicodeTitles[7], body: "local text\n"),
            remote: ArticleContent(title: unicodeTitles[7], body: "remote text\n", tags: ["remote"]), baseRevision: 4,
            remoteRevision: 9)
        try await library.recordConflict(
            articleID: synced[2], base: base, local: nil, remote: ArticleContent(title: "Remote edit", body: "remote\n"),
            baseRevision: 5, remoteRevision: 11)
        let resolved = try await library.recordConflict(
            articleID: synced[3], base: base, local: ArticleContent(title: "Mine", body: "mine\n"),
            remote: ArticleContent(title: "Theirs", body: "theirs\n"), baseRevision: 6, remoteRevision: 12)
        try await library.resolveConflict(resolved.id, .keepMine)
        // The personal dictionary (schema V4), in two languages.
        try await library.addPersonalWord("Quirelike", language: "en_US")
        try await library.addPersonalWord("Schreibfluss", language: "de_DE")
        // Attachments (schema V5): a small image kept in its row, referred to from the article's
        // text. (A large one lives in a file beside the library, which a fixture of one file
        // cannot carry.)
        let image = AttachmentSamples.png(bytes: 2_000, seed: 5)
        let attachment = try await library.addAttachment(to: titled[4], fileName: "figure 1 – café.png", data: image)
        try await library.editArticle(titled[4], body: "An image:\n\n" + attachment.reference.markdown(mediaType: attachment.mediaType) + "\n")
    }
}
