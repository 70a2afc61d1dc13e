import Foundation
import QuireTestSupport
import Testing
@testable import Library

/// The verbs that organize and go back in time, end to end through the built `quire`: tag,
/// untag, tags, favorite, status, move, folder (and the older folders), list's filters, history,
/// restore-version, resolve by article ID; each with --json, ID prefixes, and their exit statuses.
@Suite struct OrganizingVerbTests {
    private let verbs = VerbTests()

    private func quire(_ arguments: [String], library: URL) throws -> ProgramRun {
        try verbs.quire(arguments, library: library)
    }

    /// `arguments` run with --json, parsed.
    private func json(_ arguments: [String], library: URL) throws -> Any {
        let run = try quire(arguments + ["--json"], library: library)
        #expect(run.status == 0, "\(arguments): \(run.error)")
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8))
    }

    /// A library with two articles made by `quire new`; their IDs.
    private func library() throws -> (TemporaryFolder, URL, [String]) {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        var ids: [String] = []
        for title in ["First", "Second"] {
            let run = try verbs.quire(["new", "--title", title, "--body-file", "-"], library: url, input: "# \(title)\n\nWords here.\n")
            #expect(run.status == 0, "\(run.error)")
            ids.append(run.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (folder, url, ids)
    }

    @Test func tagUntagAndTags() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let tagged = try json(["tag", String(ids[0].prefix(8)), "swift", "long reads"], library: url) as? [String: Any]
        #expect(tagged?["tags"] as? [String] == ["long reads", "swift"])
        #expect(try quire(["tag", ids[1], "swift"], library: url).output == "\(ids[1])  tags: swift\n")
        let tags = try json(["tags"], library: url) as? [[String: Any]]
        #expect(tags?.map { $0["name"] as? String } == ["long reads", "swift"])
        #expect(tags?.map { $0["articleCount"] as? Int } == [1, 2])
        #expect(try quire(["tags"], library: url).output == "     1  long reads\n     2  swift\n")

        let untagged = try json(["untag", ids[0], "swift"], library: url) as? [String: Any]
        #expect(untagged?["tags"] as? [String] == ["long reads"])
        let listed = try json(["list", "--tag", "swift"], library: url) as? [[String: Any]]
        #expect(listed?.compactMap { $0["id"] as? String } == [ids[1]])

        let renamed = try json(["tags", "rename", "swift", "Swift"], library: url) as? [[String: Any]]
        #expect(renamed?.map { $0["name"] as? String } == ["long reads", "Swift"])
        #expect((try json(["tags", "delete", "long reads"], library: url) as? [[String: Any]])?.count == 1)
        #expect(try quire(["tags", "delete", "nope"], library: url).error == "quire tags: there is no tag named 'nope'\n")
        #expect(try quire(["tag", ids[0]], library: url).status == 2)
    }

    @Test func favoriteStatusAndListFilters() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        #expect((try json(["favorite", ids[0]], library: url) as? [String: Any])?["favorite"] as? Bool == true)
        #expect(try quire(["favorite", ids[0], "--off"], library: url).output == "\(ids[0])  not a favorite\n")
        #expect(try quire(["favorite", ids[1]], library: url).status == 0)
        #expect((try json(["status", ids[0], "ready"], library: url) as? [String: Any])?["status"] as? String == "ready")
        #expect(try quire(["status", ids[1], "PUBLISHED"], library: url).output == "\(ids[1])  status: published\n")
        let bad = try quire(["status", ids[1], "done"], library: url)
        #expect(bad.status == 2 && bad.error.hasPrefix("quire status: STATUS 'done' is not draft, ready or published"))

        func listed(_ arguments: [String]) throws -> [String] {
            (try json(["list"] + arguments, library: url) as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        }
        #expect(try listed(["--favorites"]) == [ids[1]])
        #expect(try listed(["--status", "ready"]) == [ids[0]])
        #expect(try listed(["--search", "status:published"]) == [ids[1]])
        #expect(try listed(["--favorites", "--status", "ready"]).isEmpty)
        let both = try quire(["list", "--favorites", "--trash"], library: url)
        #expect(both.status == 2 && both.error.hasPrefix("quire list: --favorites and --trash cannot be given together"))
    }

    @Test func foldersAndMove() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        #expect((try json(["folder", "add", "Essays"], library: url) as? [[String: Any]])?.first?["name"] as? String == "Essays")
        let moved = try json(["move", ids[0], "--folder", "Essays"], library: url) as? [String: Any]
        #expect(moved?["folder"] as? String == "Essays")
        #expect(try quire(["folder", "list"], library: url).output == "     1  Essays\n")
        #expect(try quire(["folders"], library: url).output == "     1  Essays\n", "the older spelling still works")
        #expect(try quire(["folder", "rename", "Essays", "Prose"], library: url).output == "     1  Prose\n")
        #expect(try quire(["move", ids[0], "--none"], library: url).output == "\(ids[0])  folder: none\n")
        #expect(try quire(["move", ids[1], "--folder", "Prose"], library: url).status == 0)
        #expect(try quire(["folder", "delete", "Prose"], library: url).output == "")
        #expect((try json(["show", ids[1]], library: url) as? [String: Any])?["folder"] is NSNull)
        #expect(try quire(["move", ids[0], "--folder", "Nowhere"], library: url).error == "quire move: there is no folder named 'Nowhere'\n")
        #expect(try quire(["move", ids[0]], library: url).status == 2)
        #expect(try quire(["folder", "paint", "x"], library: url).status == 2)
    }

    @Test func historyAndRestoreVersion() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        #expect(try verbs.quire(["edit", ids[0], "--body-file", "-"], library: url, input: "Rewritten entirely.\n").status == 0)
        let history = try json(["history", String(ids[0].prefix(6))], library: url) as? [[String: Any]]
        #expect(history?.count == 2)
        #expect(history?.map { $0["source"] as? String } == ["edited", "edited"])
        #expect(history?.map { $0["wordCount"] as? Int } == [2, 3])
        let text = try quire(["history", ids[0]], library: url).output.split(separator: "\n")
        #expect(text.count == 2 && text[0].contains("this device") && text[0].contains("-1") && text[1].contains("first"))

        let first = try #require(history?.last?["id"] as? String)
        let restored = try json(["restore-version", ids[0], String(first.prefix(8))], library: url) as? [String: Any]
        #expect(restored?["body"] as? String == "# First\n\nWords here.\n")
        let after = try json(["history", ids[0]], library: url) as? [[String: Any]]
        #expect(after?.count == 2, "the restored text was already a version; what it replaced too")
        let missing = try quire(["restore-version", ids[0], "ffffffff"], library: url)
        #expect(missing.status == 1 && missing.error.contains("'quire history' lists them"))
    }

    @Test func exportWithHistoryAndImportBringItBack() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        #expect(try verbs.quire(["edit", ids[0], "--body-file", "-"], library: url, input: "Second version.\n").status == 0)
        let archive = folder.appending("archive.json")
        let export = try quire(["export", "--format", "json", "--with-history", "--out", archive.path], library: url)
        #expect(export.status == 0, "\(export.error)")
        let other = folder.appending("other.quire")
        #expect(try quire(["import", archive.path], library: other).status == 0)
        let history = try json(["history", ids[0]], library: other) as? [[String: Any]]
        #expect(history?.count == 2)
        #expect(try quire(["export", "--format", "md", "--with-history", "--out", "x"], library: url).status == 2)
    }

    @Test func theOtherVerbsThatPrintTakeJSON() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let created = try json(["new", "--title", "Third"], library: url) as? [String: Any]
        #expect((created?["id"] as? String).map { UUID(uuidString: $0) != nil } == true && created?["title"] as? String == "Third")
        let archive = folder.appending("all.json")
        let export = try json(["export", "--format", "json", "--out", archive.path], library: url) as? [String: Any]
        #expect(export?["articles"] as? Int == 3 && export?["destination"] as? String == archive.path)
        let imported = try json(["import", "--on-existing", "skip", archive.path], library: url) as? [String: Any]
        #expect(imported?["unchanged"] as? Int == 3 && imported?["created"] as? Int == 0, "the same articles: unchanged")
        #expect(imported?["restoredAttachments"] as? Int == 0, "they lack no attachment")
        #expect(try quire(["trash", ids[0]], library: url).status == 0)
        let emptied = try json(["empty-trash"], library: url) as? [String: Any]
        #expect(emptied?["deleted"] as? Int == 1 && emptied?["kept"] as? Int == 0)
        let demo = try json(["demo", "--articles", "2"], library: url) as? [String: Any]
        #expect(demo?["added"] as? Int == 2)
        let migrate = try json(["migrate"], library: url) as? [String: Any]
        #expect(migrate?["upgraded"] as? Bool == false && migrate?["format"] as? Int == LibrarySchema.current.version)
    }

    @Test func anAmbiguousIDPrefixIsAUsageErrorListingTheCandidates() async throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.appending("library.quire")
        let library = try Library(url: url)
        let first = UUID(uuidString: "abcd0000-0000-4000-8000-000000000001")!
        let second = UUID(uuidString: "abcd0000-0000-4000-8000-000000000002")!
        try await library.createArticle(ArticleContent(title: "A", body: ""), id: first)
        try await library.createArticle(ArticleContent(title: "B", body: ""), id: second)
        library.close()
        for verb in [["show"], ["favorite"], ["history"], ["tag", "x"]] {
            let run = try quire([verb[0], "abcd"] + verb.dropFirst(), library: url)
            #expect(run.status == 2, "\(verb)")
            #expect(run.error.contains(first.uuidString.lowercased()) && run.error.contains(second.uuidString.lowercased()), "\(run.error)")
        }
        #expect(try quire(["show", "abcd0000-0000-4000-8000-000000000002"], library: url).status == 0)
    }

    @Test func resolveTakesTheArticleIDAndSaysWhichIDsItExpects() async throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let id = try #require(UUID(uuidString: ids[0]))
        let library = try Library(url: url)
        let base = try await library.article(id).content
        // Saved, but no session ended: the history does not hold this text yet.
        let mine = try await library.editArticle(id, body: "Mine, typed since.\n").content
        try await library.recordConflict(
            articleID: id, base: base, local: mine,
            remote: ArticleContent(title: "First", body: "Theirs.\n"), baseRevision: 1, remoteRevision: 2)
        library.close()
        let wrong = try quire(["resolve", "ffffffff", "--keep", "theirs"], library: url)
        #expect(wrong.status == 1 && wrong.error.contains("give a conflict's ID or its article's"), "\(wrong.error)")
        let resolved = try json(["resolve", String(ids[0].prefix(8)), "--keep", "theirs"], library: url) as? [String: Any]
        #expect(resolved?["articleId"] as? String == ids[0])
        #expect((try json(["show", ids[0]], library: url) as? [String: Any])?["body"] as? String == "Theirs.\n")
        let history = try json(["history", ids[0]], library: url) as? [[String: Any]]
        #expect(history?.map { $0["source"] as? String } == ["beforeConflict", "edited"], "the replaced text is kept")
    }
}
