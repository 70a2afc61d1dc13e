import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// Every library verb end to end: the built `quire` executable run as a process on a temporary
/// library, its output, files and exit status checked.
@Suite struct VerbTests {
    /// The `quire` built beside the tests.
    static let executable: URL? = try? BuiltProduct.executable("quire")

    /// Runs `quire ARGUMENTS` with the library option and, optionally, standard input and more
    /// environment variables.
    func quire(_ arguments: [String], library: URL? = nil, input: String? = nil, environment: [String: String] = [:]) throws -> ProgramRun {
        try QuireCommand.run(arguments + (library.map { ["--library", $0.path] } ?? []), input: input, environment: environment)
    }

    /// A library with a few known articles, made through the verbs.
    private func library() throws -> (TemporaryFolder, URL, [String]) {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        var ids: [String] = []
        for (title, folderName) in [("Swift on Linux", "Tech"), ("Café notes", "Essays"), ("Grocery list", nil)] as [(String, String?)] {
            let body = folder.appending("body.md")
            try "# \(title)\n\nSome text about \(title.lowercased()).\n".write(to: body, atomically: true, encoding: .utf8)
            let run = try quire(["new", "--title", title, "--body-file", body.path] + (folderName.map { ["--folder", $0] } ?? []), library: url)
            #expect(run.status == 0, "\(run.error)")
            ids.append(run.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (folder, url, ids)
    }

    @Test func newPrintsTheIDAndReadsStandardInput() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.appending("fresh/library.quire")
        let run = try quire(["new", "--title", "From stdin", "--body-file", "-"], library: url, input: "line one\r\nline two\n")
        #expect(run.status == 0, "\(run.error)")
        let id = try #require(UUID(uuidString: run.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        let show = try quire(["show", "--json", id.uuidString], library: url)
        let article = try LibraryArchive.makeDecoder().decode(ArchivedArticle.self, from: Data(show.output.utf8))
        #expect(article.title == "From stdin")
        #expect(article.body == "line one\r\nline two\n", "the body is stored exactly")
        #expect(article.sync?.state == .localOnly)
    }

    @Test func listShowsFoldersSearchesAndTrash() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let all = try quire(["list"], library: url)
        #expect(all.status == 0, "\(all.error)")
        #expect(all.output.split(separator: "\n").count == 3)
        #expect(all.output.contains("Swift on Linux  [Tech]"))

        let json = try quire(["list", "--json"], library: url)
        let listed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect(Set(listed?.compactMap { $0["id"] as? String } ?? []) == Set(ids))
        #expect(listed?.first { $0["title"] as? String == "Café notes" }?["folder"] as? String == "Essays")

        #expect(try quire(["list", "--folder", "Tech"], library: url).output.contains("Swift on Linux"))
        #expect(try quire(["list", "--folder", "Tech"], library: url).output.split(separator: "\n").count == 1)
        let search = try quire(["list", "--search", "cafe"], library: url)
        #expect(search.output.split(separator: "\n").map { String($0.prefix(36)) } == [ids[1]])

        #expect(try quire(["trash", String(ids[2].prefix(8))], library: url).status == 0)
        #expect(try quire(["list"], library: url).output.split(separator: "\n").count == 2)
        #expect(try quire(["list", "--trash"], library: url).output.contains("Grocery list"))

        let missing = try quire(["list", "--folder", "Nowhere"], library: url)
        #expect(missing.status == 1)
        #expect(missing.error == "quire list: there is no folder named 'Nowhere'\n")
    }

    @Test func showAndEdit() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let show = try quire(["show", ids[0]], library: url)
        #expect(show.status == 0)
        #expect(show.output.hasPrefix("Swift on Linux\nID:       \(ids[0])\nFolder:   Tech\n"))
        #expect(show.output.hasSuffix("\n# Swift on Linux\n\nSome text about swift on linux.\n"))

        let body = folder.appending("new-body.md")
        try "Rewritten.\n".write(to: body, atomically: true, encoding: .utf8)
        let edit = try quire(["edit", ids[0], "--title", "Swift everywhere", "--body-file", body.path], library: url)
        #expect(edit.status == 0, "\(edit.error)")
        let json = try quire(["show", ids[0], "--json"], library: url)
        let article = try LibraryArchive.makeDecoder().decode(ArchivedArticle.self, from: Data(json.output.utf8))
        #expect(article.title == "Swift everywhere")
        #expect(article.body == "Rewritten.\n")
        #expect(article.sync?.localRevision == 2)
        #expect(try quire(["list", "--search", "rewritten"], library: url).output.contains("Swift everywhere"))
    }

    @Test func newAndEditTakeALanguageThatShowPrints() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let created = try quire(["new", "--title", "Brief", "--language", "de_DE", "--json"], library: url)
        #expect(created.status == 0, "\(created.error)")
        let article = try LibraryArchive.makeDecoder().decode(ArchivedArticle.self, from: Data(created.output.utf8))
        #expect(article.language == "de_DE")
        #expect(try quire(["edit", ids[0], "--language", "fr"], library: url).status == 0)
        let json = try quire(["show", ids[0], "--json"], library: url)
        #expect(json.output.contains("\"language\":\"fr\""))
        let refused = try quire(["edit", ids[0], "--language", "not a tag"], library: url)
        #expect(refused.status == 2)
        #expect(refused.error.contains("--language"))
    }

    /// IDs are printed one way by every verb: lower case, as RFC 4122 text.
    @Test func everyVerbPrintsIDsInLowerCase() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        #expect(ids.allSatisfy { $0 == $0.lowercased() && UUID(uuidString: $0) != nil }, "new")
        let show = try quire(["show", "--json", ids[0].uppercased()], library: url)
        let object = try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any]
        #expect(object?["id"] as? String == ids[0], "show --json")
        let list = try quire(["list", "--json"], library: url)
        let listed = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]]
        #expect(Set(listed?.compactMap { $0["id"] as? String } ?? []) == Set(ids), "list --json")
        let archive = folder.appending("library.json")
        #expect(try quire(["export", "--format", "json", "--out", archive.path], library: url).status == 0)
        #expect(try String(contentsOf: archive, encoding: .utf8).contains("\"id\":\"\(ids[0])\""), "the archive")

        // Every other verb that prints an ID, in its lines and its --json: no UUID in upper case.
        let id = ids[0].uppercased()
        let verbs: [[String]] = [
            ["list"], ["show", id], ["tag", id, "kept"], ["untag", id, "kept"], ["status", id, "ready"], ["favorite", id],
            ["move", id, "--none"], ["history", id], ["trash", id], ["list", "--trash"], ["restore", id], ["tags"], ["conflicts"],
        ]
        let uuid = try Regex("[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
        let withJSON = verbs.filter { !["trash", "restore"].contains($0[0]) }.map { [$0[0], "--json"] + $0.dropFirst() }
        for arguments in verbs + withJSON {
            let run = try quire(arguments, library: url)
            #expect(run.status == 0, "\(arguments): \(run.error)")
            let printed = run.output.matches(of: uuid).map { String(run.output[$0.range]) }
            #expect(printed.allSatisfy { $0 == $0.lowercased() }, "quire \(arguments.joined(separator: " ")): \(run.output)")
        }
    }

    /// A script's read-modify-write: the revision `show` prints is the one `edit --if-revision`
    /// checks; a change in between is refused with exit status 75 and the revision it is at now.
    @Test func editIfRevisionRefusesAChangeInBetween() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let json = try quire(["show", ids[0], "--json"], library: url)
        let read = try #require(try LibraryArchive.makeDecoder().decode(ArchivedArticle.self, from: Data(json.output.utf8)).sync?.localRevision)
        #expect(try quire(["show", ids[0]], library: url).output.contains("\nRevision: \(read)\n"))

        let first = try quire(["edit", ids[0], "--body-file", "-", "--if-revision", "\(read)"], library: url, input: "Mine.\n")
        #expect(first.status == 0, "\(first.error)")
        let second = try quire(["edit", ids[0], "--body-file", "-", "--if-revision", "\(read)"], library: url, input: "Theirs.\n")
        #expect(second.status == 75)
        #expect(second.error == "quire edit: article \(ids[0]) is at revision \(read + 1) now, not \(read): it changed since it was read\n")
        let after = try quire(["show", ids[0], "--json"], library: url)
        #expect(try LibraryArchive.makeDecoder().decode(ArchivedArticle.self, from: Data(after.output.utf8)).body == "Mine.\n")
        #expect(try quire(["edit", ids[0], "--title", "T", "--if-revision", "soon"], library: url).status == 2)
        let help = try quire(["help", "edit"], library: nil)
        #expect(help.output.contains("sync.localRevision in 'quire show --json ID'"), "\(help.output)")
    }

    @Test func badInputExitsWithOneClearLine() throws {
        let (folder, url, _) = try library()
        defer { withExtendedLifetime(folder) {} }
        let cases: [([String], Int32, String)] = [
            (["show", "ffffffff"], 1, "quire show: no article's ID begins with 'ffffffff'"),
            (["show", "12"], 1, "quire show: no article's ID begins with '12'"),
            (["edit", "ffffffff-0000-4000-8000-000000000000", "--title", "x"], 1,
             "quire edit: no article has the ID ffffffff-0000-4000-8000-000000000000"),
            (["edit", "ffffffff"], 2, "quire edit: --title, --body-file or --language is missing"),
            (["new"], 2, "quire new: --title is missing"),
            (["new", "--title", "x", "--body-file", folder.appending("missing.md").path], 1,
             "quire new: cannot read --body-file \(folder.appending("missing.md").path): No such file or directory"),
            (["demo", "--articles", "lots"], 2, "quire demo: --articles 'lots' is not a number from 1 to 10000000"),
            (["export", "--format", "docx", "--out", "x"], 2, "quire export: --format 'docx' is not md, html, pdf or json"),
            (["export", "--format", "md", "--scope", "everything", "--out", "x"], 2,
             "quire export: --scope 'everything' is not selected:ID,..., folder:NAME, drafts, unsynced or all"),
            (["import", "--on-existing", "merge", "x"], 2, "quire import: --on-existing 'merge' is not skip, replace or copy"),
            (["list", "--colour"], 2, "quire list: unknown option '--colour'"),
        ]
        for (arguments, status, message) in cases {
            let run = try quire(arguments, library: url)
            #expect(run.status == status, "\(arguments): \(run.error)")
            #expect(run.error.split(separator: "\n").first.map(String.init) == message, "\(arguments)")
        }
        let missingLibrary = try quire(["list"], library: folder.appending("none.quire"))
        #expect(missingLibrary.status == 1)
        #expect(missingLibrary.error == "quire list: There is no Quire library at \(folder.appending("none.quire").path).\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appending("none.quire").path), "reading never creates a library")

        let binary = folder.appending("binary.md")
        try Data([0xFF, 0xFE, 0x00]).write(to: binary)
        let notText = try quire(["new", "--title", "x", "--body-file", binary.path], library: url)
        #expect(notText.error == "quire new: --body-file \(binary.path) is not UTF-8 text\n")
    }

    @Test func foldersCountArticles() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        #expect(try quire(["trash", ids[0]], library: url).status == 0)
        let text = try quire(["folders"], library: url)
        #expect(text.output == "     1  Essays\n     0  Tech\n")
        let json = try quire(["folders", "--json"], library: url)
        let folders = try JSONDecoder().decode([FolderSummary].self, from: Data(json.output.utf8))
        #expect(folders == [FolderSummary(name: "Essays", articleCount: 1), FolderSummary(name: "Tech", articleCount: 0)])
    }

    @Test func restoreAndEmptyTrash() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        #expect(try quire(["trash", ids[0]], library: url).status == 0)
        #expect(try quire(["trash", ids[2]], library: url).status == 0)
        // Restored into the folder it was in.
        #expect(try quire(["restore", String(ids[0].prefix(8))], library: url).status == 0)
        #expect(try quire(["list", "--folder", "Tech"], library: url).output.contains("Swift on Linux"))
        let again = try quire(["restore", ids[0]], library: url)
        #expect(again.status == 1)
        #expect(again.error == "quire restore: 'Swift on Linux' (\(ids[0])) is not in the trash\n")

        let emptied = try quire(["empty-trash"], library: url)
        #expect(emptied.status == 0, "\(emptied.error)")
        #expect(emptied.output == "Deleted 1 article for good.\n")
        #expect(try quire(["list", "--trash"], library: url).output.isEmpty)
        #expect(try quire(["show", ids[2]], library: url).status == 1, "deleted for good")
        #expect(try quire(["list"], library: url).output.split(separator: "\n").count == 2)
    }

    @Test func demoFillsALibrary() async throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.appending("demo.quire")
        let run = try quire(["demo", "--articles", "60"], library: url)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "Added 60 demo articles to \(url.path)\n")
        let library = try Library(url: url, createIfMissing: false)
        let total = try await library.count(matching: ArticleQuery()) + (try await library.count(matching: ArticleQuery(filter: .trash)))
        #expect(total == 60)
        #expect(try await library.folders().count == DemoLibrary.folders.count)
    }

    @Test func exportWritesEveryFormat() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let markdown = try quire(["export", "--format", "md", "--out", folder.appending("md").path], library: url)
        #expect(markdown.output == "Exported 3 articles to \(folder.appending("md").path)\n")
        #expect(try folder.contents(of: folder.appending("md")).filter { $0.hasSuffix(".md") }.count == 3)

        let again = try quire(["export", "--format", "md", "--out", folder.appending("md").path], library: url)
        #expect(again.status == 1)
        #expect(again.error.hasSuffix("already exists (add --force to replace it)\n"))
        #expect(try quire(["export", "--format", "md", "--force", "--out", folder.appending("md").path], library: url).status == 0)

        let html = try quire(["export", "--format", "html", "--scope", "folder:Tech", "--out", folder.appending("html").path], library: url)
        #expect(html.output == "Exported 1 article to \(folder.appending("html").path)\n")
        let page = try String(contentsOf: folder.appending("html/Swift on Linux.html"), encoding: .utf8)
        #expect(page.contains("<h1>Swift on Linux</h1>"))

        let combined = folder.appending("all.html")
        #expect(try quire(["export", "--format", "html", "--combined", "--out", combined.path], library: url).status == 0)
        #expect(try String(contentsOf: combined, encoding: .utf8).contains("Café notes"))

        let pdf = folder.appending("selected.pdf")
        let selected = "selected:\(ids[1]),\(ids[0])"
        #expect(try quire(["export", "--format", "pdf", "--combined", "--scope", selected, "--out", pdf.path], library: url).status == 0)
        #expect(try Data(contentsOf: pdf).prefix(5) == Data("%PDF-".utf8))

        let archive = folder.appending("library.json")
        #expect(try quire(["export", "--format", "json", "--out", archive.path], library: url).status == 0)
        let decoded = try LibraryArchive.read(from: Data(contentsOf: archive), path: archive.path)
        #expect(Set(decoded.articles.map { $0.id.uuidString.lowercased() }) == Set(ids))
        #expect(decoded.folders.sorted() == ["Essays", "Tech"])
    }

    @Test func importBringsBackWhatExportWrote() throws {
        let (folder, url, ids) = try library()
        defer { withExtendedLifetime(folder) {} }
        let archive = folder.appending("library.json")
        #expect(try quire(["export", "--format", "json", "--out", archive.path], library: url).status == 0)
        let markdown = folder.appending("md")
        #expect(try quire(["export", "--format", "md", "--out", markdown.path], library: url).status == 0)

        let target = folder.appending("target.quire")
        let first = try quire(["import", archive.path], library: target)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output == "Imported 3 new, 0 replaced, 0 copied; 0 skipped, 0 unchanged\n")
        #expect(Set(try quire(["list", "--json"], library: target).output.matches(of: /"id":"([0-9a-f-]+)"/).map { String($0.1) }) == Set(ids))

        #expect(try quire(["edit", ids[0], "--title", "Changed here"], library: target).status == 0)
        let skipped = try quire(["import", markdown.path], library: target)
        #expect(skipped.output == "Imported 0 new, 0 replaced, 0 copied; 1 skipped, 2 unchanged\n")
        let replaced = try quire(["import", "--on-existing", "replace", markdown.path], library: target)
        #expect(replaced.output == "Imported 0 new, 1 replaced, 0 copied; 0 skipped, 2 unchanged\n")
        #expect(try quire(["show", ids[0]], library: target).output.hasPrefix("Swift on Linux\n"))
        #expect(try quire(["edit", ids[0], "--title", "Changed again"], library: target).status == 0)
        let copied = try quire(["import", "--on-existing", "copy", markdown.path], library: target)
        #expect(copied.output == "Imported 0 new, 0 replaced, 1 copied; 0 skipped, 2 unchanged\n")
        #expect(try quire(["list"], library: target).output.split(separator: "\n").count == 4)

        let bad = folder.appending("bad.json")
        try "{\"format\": \"something else\"}".write(to: bad, atomically: true, encoding: .utf8)
        let partly = try quire(["import", bad.path, archive.path], library: folder.appending("third.quire"))
        #expect(partly.status == 1)
        #expect(partly.output == "Imported 3 new, 0 replaced, 0 copied; 0 skipped, 0 unchanged\n")
        #expect(partly.error == "quire import: \(bad.path): not a Quire archive\nquire import: 1 file could not be imported (the others were)\n")
        let missing = try quire(["import", folder.appending("nothing").path], library: target)
        #expect(missing.error == "quire import: \(folder.appending("nothing").path) does not exist\n")
    }

    @Test func helpListsTheLibraryVerbs() throws {
        let help = try quire(["--help"])
        for verb in [
            "list", "show", "new", "edit", "trash", "restore", "empty-trash", "folders", "demo", "export", "import", "tag", "untag", "tags",
            "favorite", "status", "move", "folder", "history", "restore-version",
        ] {
            #expect(help.output.contains("\n  \(verb) "), "\(verb)")
            let usage = try quire(["help", verb])
            #expect(usage.status == 0)
            #expect(usage.output.hasPrefix("Usage: quire \(verb) "))
        }
    }
}

/// A verb test that could not run as it needs (no `quire` built beside the tests).
struct VerbTestError: Error { let message: String }

/// The built `quire`, run to its end away from the writer's own library (in a data folder of the
/// tests') and in UTC, with more environment variables of the test's choosing.
enum QuireCommand {
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> ProgramRun {
        guard let executable = VerbTests.executable else { throw VerbTestError(message: "quire is not built beside the tests") }
        let home = FileManager.default.temporaryDirectory.path + "/quire-verb-tests-home"
        let variables = ["XDG_DATA_HOME": home, "TZ": "UTC"].merging(environment) { $1 }
        return try ProgramRun(executable, arguments, environment: variables.mapValues { Optional($0) }, input: input.map { Data($0.utf8) })
    }
}
