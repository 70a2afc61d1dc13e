import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

@Suite struct MarkdownImportTests {
    @Test func markdownExportThenImportKeepsEveryField() async throws {
        let folder = try TemporaryFolder()
        let articles = ArchiveRoundTripTests.library().map { article -> ArticleSnapshot in
            var article = article
            article.trashed = nil  // Markdown files do not carry the trash, nor the local sync state.
            article.localRevision = 0
            article.syncState = .localOnly
            return article
        }
        try await ExportJob(format: .markdown, destination: folder.url).run(from: ArticleArraySource(articles))
        let scan = try await ImportScan.read([folder.url])
        #expect(scan.failures.isEmpty, "\(scan.failures)")
        #expect(scan.articles.count == articles.count)
        let byID = Dictionary(uniqueKeysWithValues: scan.articles.map { ($0.article.id, $0) })
        for original in articles {
            let imported = try #require(byID[original.id])
            #expect(imported.hasStoredID)
            #expect(imported.article == original)
            #expect(imported.article.title.utf8.elementsEqual(original.title.utf8))
            #expect(imported.article.body.utf8.elementsEqual(original.body.utf8))
        }
    }

    @Test func frontMatterQuotesWhatCouldBreakIt() {
        let article = SampleArticles.article(
            "\"Quoted\": a \\ title\n---\n# not a key: x\u{7}\u{2028}\u{202E}", folder: "a: b # c", tags: ["x, y", "[z]"])
        let text = MarkdownFile.text(for: article)
        let frontMatter = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(frontMatter[2] == #"title: "\"Quoted\": a \\ title\n---\n# not a key: x\a\L\u202E""#)
        #expect(frontMatter[3] == #"folder: "a: b # c""#)
        #expect(frontMatter[4] == #"tags: ["x, y", "[z]"]"#)
        #expect(frontMatter[10] == "---")
    }

    @Test func foreignFrontMatterIsMappedBack() throws {
        let text = """
            ---
            # a comment
            title: Plain title   # with a comment
            id: 0B0A6C2E-9A51-4B36-8F0E-2D2C1F7E6A10
            tags:
              - one
              - 'it''s'
            folder: 'Notes'
            status: Published
            favorite: yes
            date: 2020-01-02
            layout: post
            extra:
              nested: mapping
            description: >
              folded text
            ---
            Body here.

            """
        let imported = try MarkdownFileReader.article(
            from: Data(text.utf8), url: URL(fileURLWithPath: "/tmp/post.md"), folder: "Imported", modified: Date(timeIntervalSince1970: 5))
        #expect(imported.hasStoredID)
        #expect(imported.article.id == UUID(uuidString: "0b0a6c2e-9a51-4b36-8f0e-2d2c1f7e6a10"))
        #expect(imported.article.title == "Plain title")
        #expect(imported.article.tags == ["one", "it's"])
        #expect(imported.article.folder == "Notes")
        #expect(imported.article.status == .published)
        #expect(imported.article.isFavorite)
        #expect(imported.article.created == Date(timeIntervalSince1970: 1_577_923_200))
        #expect(imported.article.updated == Date(timeIntervalSince1970: 5))
        #expect(imported.article.body == "Body here.\n")
    }

    @Test func crlfFrontMatterIsReadAndTheBodyKeepsItsLineEndings() throws {
        let text = "---\r\ntitle: \"Windows\"\r\ntags: [a, b]\r\n---\r\nLine one\r\nLine two\r\n"
        let imported = try MarkdownFileReader.article(
            from: Data(text.utf8), url: URL(fileURLWithPath: "/tmp/w.md"), folder: nil, modified: Date())
        #expect(imported.article.title == "Windows")
        #expect(imported.article.tags == ["a", "b"])
        #expect(imported.article.body.utf8.elementsEqual("Line one\r\nLine two\r\n".utf8))
    }

    @Test func withoutFrontMatterTheTitleComesFromTheFirstHeadingOrTheFileName() throws {
        let url = URL(fileURLWithPath: "/tmp/My Note.md")
        let modified = Date(timeIntervalSince1970: 1_000)
        let headed = try MarkdownFileReader.article(
            from: Data("Intro line\r\n\r\nSetext *Title*\r\n===\r\n\r\n## Later\r\n".utf8), url: url, folder: "Sub", modified: modified)
        #expect(headed.article.title == "Setext Title")
        #expect(headed.article.body == "Intro line\r\n\r\nSetext *Title*\r\n===\r\n\r\n## Later\r\n")
        #expect(headed.article.folder == "Sub")
        #expect(!headed.hasStoredID)
        #expect(headed.article.created == modified && headed.article.updated == modified)

        let plain = try MarkdownFileReader.article(from: Data("\u{FEFF}just text, no heading\n".utf8), url: url, folder: nil, modified: modified)
        #expect(plain.article.title == "My Note")
        #expect(plain.article.body == "just text, no heading\n")
        // An opening line without a closing one is no front matter.
        let ruled = try MarkdownFileReader.article(from: Data("---\n# Heading\n".utf8), url: url, folder: nil, modified: modified)
        #expect(ruled.article.title == "Heading")
        #expect(ruled.article.body == "---\n# Heading\n")
    }

    @Test func badFilesAreReportedAloneAndTheOthersImport() async throws {
        let folder = try TemporaryFolder()
        let good = SampleArticles.article("Good one", folder: nil)
        try MarkdownFile.text(for: good).write(to: folder.appending("good.md"), atomically: true, encoding: .utf8)
        try Data([0x23, 0x20, 0xFF, 0xFE, 0x0A]).write(to: folder.appending("binary.md"))
        try "---\nid: not-a-uuid\n---\nbody\n".write(to: folder.appending("bad-id.md"), atomically: true, encoding: .utf8)
        try "---\nstatus: archived\n---\nbody\n".write(to: folder.appending("bad-status.md"), atomically: true, encoding: .utf8)
        try "---\ntitle: \"unterminated\n---\nbody\n".write(to: folder.appending("bad-quote.md"), atomically: true, encoding: .utf8)
        try #"{"name": "not an archive"}"#.write(to: folder.appending("package.json"), atomically: true, encoding: .utf8)
        try "ignored".write(to: folder.appending("notes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appending(".git"), withIntermediateDirectories: true)
        try "# hidden".write(to: folder.appending(".git/HEAD.md"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appending("Travel"), withIntermediateDirectories: true)
        try "# Lisbon\n".write(to: folder.appending("Travel/lisbon.md"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: folder.appending("Travel/loop"), withDestinationURL: folder.url)

        let scan = try await ImportScan.read([folder.url])
        #expect(Set(scan.articles.map(\.article.title)) == ["Good one", "Lisbon"])
        #expect(scan.articles.first { $0.article.title == "Lisbon" }?.article.folder == "Travel")
        let failed = Set(scan.failures.map { URL(fileURLWithPath: $0.path).lastPathComponent })
        #expect(failed == ["binary.md", "bad-id.md", "bad-status.md", "bad-quote.md", "package.json"])
        let badID = try #require(scan.failures.first { $0.path.hasSuffix("bad-id.md") })
        #expect(badID == .invalidField(path: folder.appending("bad-id.md").standardizedFileURL.path, line: 2, key: "id", reason: "not a UUID: not-a-uuid"))
    }

    @Test func filesAreReadInPathOrderEachInTheFolderItLiesIn() async throws {
        let folder = try TemporaryFolder()
        for path in ["b.md", "a.md", "Essays/Drafts/late.md", "Essays/early.markdown", "Essays/.hidden/secret.md", "Essays/list.txt"] {
            let file = folder.appending(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let name = file.deletingPathExtension().lastPathComponent
            try "# \(name)\n".write(to: file, atomically: true, encoding: .utf8)
        }
        // A link is not followed, to a file either: it would bring the same article twice.
        try FileManager.default.createSymbolicLink(at: folder.appending("Essays/linked.md"), withDestinationURL: folder.appending("a.md"))

        let scan = try await ImportScan.read([folder.url])
        #expect(scan.articles.map(\.article.title) == ["late", "early", "a", "b"])
        #expect(scan.articles.map(\.article.folder) == ["Drafts", "Essays", nil, nil])
        #expect(scan.articles.map(\.source.path) == ["Essays/Drafts/late.md", "Essays/early.markdown", "a.md", "b.md"].map {
            folder.appending($0).standardizedFileURL.path
        })
        #expect(scan.failures.isEmpty)
    }

    @Test func aFolderThatCannotBeListedIsAFailureAndTheRestStillImports() async throws {
        // As root (as CI runs) every folder opens whatever its mode; a path longer than PATH_MAX
        // opens for no one. The folders are made one below the other through descriptors.
        let folder = try TemporaryFolder()
        try "# Kept\n".write(to: folder.appending("kept.md"), atomically: true, encoding: .utf8)
        let name = String(repeating: "d", count: 250)
        var levels = [open(folder.url.path, O_RDONLY | O_DIRECTORY)]
        defer {
            unlinkat(levels[levels.count - 1], "deep.md", 0)
            for level in stride(from: levels.count - 1, to: 0, by: -1) { unlinkat(levels[level - 1], name, AT_REMOVEDIR) }
            levels.forEach { close($0) }
            withExtendedLifetime(folder) {}
        }
        var pathLength = folder.url.path.utf8.count
        while pathLength <= Int(PATH_MAX) {
            try #require(mkdirat(levels[levels.count - 1], name, 0o755) == 0)
            let next = openat(levels[levels.count - 1], name, O_RDONLY | O_DIRECTORY)
            try #require(next >= 0)
            levels.append(next)
            pathLength += name.utf8.count + 1
        }
        let note = openat(levels[levels.count - 1], "deep.md", O_WRONLY | O_CREAT, 0o644)
        try #require(note >= 0)
        _ = "# Deep\n".withCString { write(note, $0, strlen($0)) }
        close(note)

        let scan = try await ImportScan.read([folder.url])
        #expect(scan.articles.map(\.article.title) == ["Kept"])
        #expect(scan.failures.count == 1)
        guard case .unreadable(let path, let reason)? = scan.failures.first else {
            Issue.record("expected the folder that could not be listed, got \(scan.failures)")
            return
        }
        #expect(path.hasPrefix(folder.url.standardizedFileURL.path + "/" + name + "/"))
        #expect(!reason.isEmpty)
    }

    @Test func duplicateIDsAcrossFilesAreReported() async throws {
        let folder = try TemporaryFolder()
        let article = SampleArticles.article("Twice")
        try MarkdownFile.text(for: article).write(to: folder.appending("a.md"), atomically: true, encoding: .utf8)
        try MarkdownFile.text(for: article).write(to: folder.appending("b.md"), atomically: true, encoding: .utf8)
        let scan = try await ImportScan.read([folder.url])
        #expect(scan.articles.count == 1)
        #expect(scan.failures == [.duplicateID(
            path: folder.appending("b.md").standardizedFileURL.path, id: article.id,
            firstSeenIn: folder.appending("a.md").standardizedFileURL.path)])
    }
}

@Suite struct ImportPlanTests {
    private func scan(_ articles: [ArticleSnapshot], folders: [String] = [], tags: [String] = []) -> ImportScan {
        var scan = ImportScan()
        scan.articles = articles.map { ImportedArticle(article: $0, source: URL(fileURLWithPath: "/tmp/a.json"), hasStoredID: true) }
        scan.folders = folders
        scan.tags = tags
        return scan
    }

    @Test func existingArticlesFollowThePolicyChosenOnce() {
        var existing = SampleArticles.article("Same ID", body: "old body\n", folder: "Essays", tags: ["a"])
        existing.serverRevision = 7
        existing.syncState = .synced
        var changed = existing
        changed.body = "new body\n"
        changed.tags = ["a", "b"]
        changed.serverRevision = 3
        let identical = SampleArticles.article("Identical")
        let fresh = SampleArticles.article("New one", folder: "Travel", tags: ["b"])
        let library = LibraryContents(articles: [existing, identical], folders: ["Essays"], tags: ["a"])
        let imported = scan([changed, identical, fresh], folders: ["Essays", "Empty"], tags: ["a", "b"])

        let skipping = ImportPlan(scan: imported, library: library, onExisting: .skip)
        #expect(skipping.items.map(\.action) == [.skip, .unchanged, .create])
        #expect(skipping.writes.map(\.article) == [fresh])
        #expect(skipping.foldersToCreate == ["Empty"])
        #expect(skipping.tagsToCreate == ["b"])
        #expect(skipping.summary == ImportPlan.Summary(created: 1, replaced: 0, copied: 0, skipped: 1, unchanged: 1, failed: 0))

        let replacing = ImportPlan(scan: imported, library: library, onExisting: .replace)
        #expect(replacing.items[0].action == .replace(changes: [.body, .tags]))
        let replacement = replacing.items[0].article
        #expect(replacement.id == existing.id && replacement.content == changed.content)
        #expect(replacement.serverRevision == 7 && replacement.syncState == .synced)

        let newID = UUID()
        let copying = ImportPlan(scan: imported, library: library, onExisting: .copy, makeID: { newID })
        #expect(copying.items[0].action == .copy(of: existing.id))
        #expect(copying.items[0].article.id == newID)
        #expect(copying.items[0].article.content == changed.content)
        #expect(copying.items[0].article.serverRevision == nil && copying.items[0].article.syncState == .localOnly)
        #expect(copying.items[1].action == .unchanged)
    }

    @Test func filesWithoutIDsAreAlwaysNew() {
        let existing = SampleArticles.article("Note")
        var scan = ImportScan()
        scan.articles = [ImportedArticle(article: existing, source: URL(fileURLWithPath: "/tmp/n.md"), hasStoredID: false)]
        let plan = ImportPlan(scan: scan, library: LibraryContents(articles: [existing], folders: [], tags: []), onExisting: .skip)
        #expect(plan.items.map(\.action) == [.create])
    }

    @Test func archiveImportPlansTheWholeLibrary() async throws {
        let folder = try TemporaryFolder()
        let articles = ArchiveRoundTripTests.library()
        let destination = folder.appending("backup.json")
        try await ExportJob(format: .jsonArchive(.init(schemaVersion: 1, folders: ["Empty"])), destination: destination)
            .run(from: ArticleArraySource(articles))
        let scan = try await ImportScan.read([destination])
        #expect(scan.failures.isEmpty)
        #expect(scan.articles.map(\.article) == articles)
        let plan = ImportPlan(scan: scan, library: LibraryContents(articles: [], folders: [], tags: []), onExisting: .skip)
        #expect(plan.writes.map(\.article) == articles)
        #expect(plan.foldersToCreate.contains("Empty"))
    }
}
