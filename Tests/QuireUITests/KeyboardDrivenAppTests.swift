import Foundation
import Library
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The real `quire` binary under Xvfb, driven with synthetic keystrokes (`xdotool`): what a
/// writer types is saved, and what a crash interrupts is offered back on the next start.
final class KeyboardDrivenAppTests: QuireTestCase, @unchecked Sendable {
    private var environment: [String: String] {
        var variables = ProcessInfo.processInfo.environment
        variables["GSETTINGS_BACKEND"] = "memory"
        variables["GSETTINGS_SCHEMA_DIR"] = try? Self.schemaFolder.get().path
        return variables
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireXdotool()
        XCTAssertEqual(try Self.keysHeldDown(), [], "an earlier test left keys held down on the display")
    }

    override func tearDownWithError() throws {
        XCTAssertEqual(try Self.keysHeldDown(), [], "the test left keys held down on the display")
        try super.tearDownWithError()
    }

    func testTypedArticleIsSavedAfterAPauseAndIsThereAfterQuitAndRelaunch() throws {
        let library = try makeTemporaryFolder().appending(path: "library.quire")
        let app = try launch(library: library)
        defer { if app.isRunning { app.terminate() } }
        try focusWindow(named: "^Quire$", of: app)

        // Every key must arrive. (Keys were lost here when the test before this one killed
        // xdotool between a key's press and its release: the X server swallows the next press of
        // a key it holds down. `Typist` stops between words; setUp checks that no key is down.)
        let title = "Harbour notes"
        let body = "The tide came in early and the boats sat high."
        let id = try createArticle(in: library)
        try xdotool(["type", "--delay", "20", title])
        try xdotool(["key", "Return"])
        try xdotool(["type", "--delay", "20", body])
        // The autosave after a second's pause puts title and body in the store; on a timeout the
        // assertions say what it holds.
        var saved: ArticleSnapshot?
        try? waitUntil("the typed text is saved") {
            saved = try blocking { try await Library(url: library).article(id) }
            return saved?.title == title && saved?.body == body
        }
        XCTAssertEqual(saved?.title, title)
        XCTAssertEqual(saved?.body, body)
        try xdotool(["key", "ctrl+q"])
        try waitUntil("quire quits") { !app.isRunning }
        XCTAssertEqual(app.terminationStatus, 0)

        // Started again, the library shows it, with its outbox operation and no draft to recover.
        let relaunched = try launch(library: library)
        defer { if relaunched.isRunning { relaunched.terminate() } }
        try focusWindow(named: "^Quire$", of: relaunched)
        let article = try XCTUnwrap(try blocking { try await Self.article(titled: title, in: library) })
        XCTAssertEqual(article.body, body)
        XCTAssertEqual(article.syncState, .localOnly)
        XCTAssertEqual(try blocking { try await Library(url: library).unrecoveredDrafts() }, [])
        try xdotool(["key", "ctrl+q"])
        try waitUntil("quire quits again") { !relaunched.isRunning }
        XCTAssertEqual(relaunched.terminationStatus, 0)
    }

    func testTextTypedBeforeAKillIsOfferedBackAndRestored() throws {
        let library = try makeTemporaryFolder().appending(path: "library.quire")
        let app = try launch(library: library)
        defer { if app.isRunning { app.terminate() } }
        try focusWindow(named: "^Quire$", of: app)
        try createArticle(in: library)
        try xdotool(["type", "--delay", "60", "Storm log"])
        try xdotool(["key", "Return"])

        // Typing without a pause: the autosave never runs, draft recovery writes every two seconds.
        let sentence = "The wind turned at noon and the harbour emptied in an hour; by evening the pier was gone."
        let typist = Typist(typing: sentence, delayMilliseconds: 60)
        defer { typist.stop() }
        var recovered: RecoveredDraft?
        try waitUntil("draft recovery holds a part of the body") {
            recovered = try blocking { try await Library(url: library).unrecoveredDrafts() }.first
            return (recovered?.body.count ?? 0) >= 20
        }
        kill(app.processIdentifier, SIGKILL)
        typist.stop()
        app.waitUntilExit()
        XCTAssertEqual(app.terminationReason, .uncaughtSignal)

        // What the store holds now is what the next start offers.
        let offered = try XCTUnwrap(try blocking { try await Library(url: library).unrecoveredDrafts() }.first)
        XCTAssertEqual(offered.title, "Storm log")
        XCTAssertTrue(sentence.hasPrefix(offered.body), "the draft is what was typed: \(offered.body)")
        XCTAssertTrue(offered.article.body.count < offered.body.count, "the article itself has less: \(offered.article.body)")

        let relaunched = try launch(library: library)
        defer { if relaunched.isRunning { relaunched.terminate() } }
        try focusWindow(named: "^Recover Unsaved Text", of: relaunched)
        try xdotool(["key", "Return"])
        var restored: ArticleSnapshot?
        try waitUntil("the draft is restored as the article's text") {
            restored = try blocking { try await Library(url: library).article(offered.articleID) }
            return restored?.body == offered.body
        }
        XCTAssertEqual(restored?.title, "Storm log")
        XCTAssertEqual(try blocking { try await Library(url: library).unrecoveredDrafts() }, [])
        relaunched.terminate()
        relaunched.waitUntilExit()
    }

    /// A writer who never touches the mouse: real key presses only (XTEST), each sent only when
    /// the window is where it must land, every effect read from outside the app: the library file,
    /// the exported file, and the lines `QUIRE_REPORT_FELT_SPEED` prints (where the focus went, what
    /// a search listed, when an article is shown). Ctrl+N and typing write an article and
    /// Ctrl+Shift+Tab reaches its tag entry; F6 to the sidebar, Ctrl+F and a word search; Shift+F6
    /// and F6 walk the panes back into the list, Home opens the article found, F6 goes into its
    /// text; Shift+Tab from the sidebar reaches the sync status, Return opens its details, Escape
    /// closes them; Alt+R opens the conflict banner's dialog and Alt+T keeps the server's version;
    /// Ctrl+Shift+E, Ctrl+Return and a typed folder export the open article.
    func testAWriterWritesTagsSearchesResolvesAndExportsWithTheKeyboardAlone() throws {
        let folder = try makeTemporaryFolder()
        let library = folder.appending(path: "library.quire")
        // No word of the other articles starts with "h": every prefix of "Harbour" finds only
        // the harbour log.
        let theirs = "First line.\nThe shared line, as the server has it.\nLast line.\n"
        let (harbourID, fieldNotesID) = try blocking {
            let store = try Library(url: library)
            let harbour = try await store.createArticle(ArticleContent(title: "Harbour log", body: "Boats at anchor."))
            let base = ArticleContent(title: "Field notes", body: "First line.\nThe shared line.\nLast line.\n")
            let mine = ArticleContent(title: "Field notes", body: "First line.\nThe shared line, as I wrote it.\nLast line.\n")
            let notes = try await store.createArticle(mine)
            try await store.recordConflict(
                articleID: notes.id, base: base, local: mine, remote: ArticleContent(title: "Field notes", body: theirs),
                baseRevision: 1, remoteRevision: 2)
            return (harbour.id, notes.id)
        }
        let reports = ReportLines()
        let app = try launch(library: library, reporting: reports)
        defer { if app.isRunning { app.terminate() } }
        try focusWindow(named: "^Quire$", of: app)

        // Write: Ctrl+N opens the new article's title, Return goes on into its text.
        let mark = reports.count
        let id = try createArticle(in: library)
        try waitForFocus("title", after: mark, in: reports, "Ctrl+N")
        try xdotool(["type", "--delay", "20", "Storm log"])
        try press("Return", focusing: "text", in: reports)
        try xdotool(["type", "--delay", "20", "Wind at noon, rain by evening."])
        try waitUntil("the new article is saved") {
            let saved = try blocking { try await Library(url: library).article(id) }
            return saved.title == "Storm log" && saved.body == "Wind at noon, rain by evening."
        }

        // Tag it: back over the title and the status to the tag entry, a word and Return.
        try press("ctrl+shift+Tab", until: "tags", atMost: 6, in: reports)
        try xdotool(["type", "--delay", "20", "coastal"])
        try xdotool(["key", "Return"])
        try waitUntil("the tag is added to the new article") {
            try blocking { try await Library(url: library).article(id) }.tags == ["coastal"]
        }

        // Search: F6 leaves the editor for the sidebar (Ctrl+F in the text finds in the article),
        // Ctrl+F opens the list's search; the list must show the whole word's result (typing may
        // start a search after any letter) before the walk goes on.
        try press("F6", focusing: "sidebar", in: reports)
        try press("ctrl+f", focusing: "search", in: reports)
        let typed = reports.count
        try xdotool(["type", "--delay", "20", "Harbour"])
        do {
            try waitUntil("the list shows the one article “Harbour” finds") { reports.lines(after: typed).contains("search-listed 1 Harbour") }
        } catch let timeout as WaitTimedOut {
            throw WaitTimedOut(what: timeout.what + " (it showed: \(reports.lines(after: typed).joined(separator: ", ")))")
        }

        // Shift+F6 back to the sidebar, F6 into the list, Home opens the one article found.
        try press("shift+F6", focusing: "sidebar", in: reports)
        try press("F6", focusing: "articles", in: reports)
        let shown = reports.count(of: "article-shown-ms")
        try xdotool(["key", "Home"])
        try waitUntil("Home opens the article found") { reports.count(of: "article-shown-ms") > shown }

        // F6 into its text: what is typed there is saved in the harbour log.
        try press("F6", focusing: "text", in: reports)
        try xdotool(["key", "ctrl+End"])
        try xdotool(["type", "--delay", "20", " Calm sea."])
        try waitUntil("the typing reaches the harbour log") {
            try blocking { try await Library(url: library).article(harbourID) }.body == "Boats at anchor. Calm sea."
        }
        XCTAssertEqual(try blocking { try await Library(url: library).article(id) }.body, "Wind at noon, rain by evening.")

        // The sync status in the header bar: from the sidebar backwards, Return opens its
        // details, Escape closes them again.
        try press("F6", focusing: "sidebar", in: reports)
        try press("shift+Tab", until: "sync-status", atMost: 25, in: reports)
        try press("Return", focusing: "sync-details", in: reports)
        try press("Escape", focusing: "sync-status", in: reports)

        // The conflict banner's Resolve by its mnemonic, then Keep Theirs by its own.
        try xdotool(["key", "alt+r"])
        try focusWindow(named: "^Resolve Conflict$", of: app)
        try xdotool(["key", "alt+t"])
        try waitUntil("the conflict is resolved with the server's version") {
            try blocking { try await Library(url: library).openConflicts() }.isEmpty
        }
        XCTAssertEqual(try blocking { try await Library(url: library).article(fieldNotesID) }.body, theirs)

        // Export the open article as Markdown (one file per article, into a folder): Ctrl+Shift+E,
        // Ctrl+Return asks for the folder, Ctrl+L and its typed path, Return.
        let exports = folder.appending(path: "exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        try focusWindow(named: "^Quire$", of: app)
        try xdotool(["key", "ctrl+shift+e"])
        try focusWindow(named: "^Export$", of: app)
        try xdotool(["key", "ctrl+Return"])
        try focusWindow(named: "^Export to Folder$", of: app)
        try xdotool(["key", "ctrl+l"])
        try xdotool(["type", "--delay", "20", exports.path + "/"])
        try xdotool(["key", "Return"])
        try waitUntil("the harbour log is exported") {
            (try? String(contentsOf: exports.appending(path: "Harbour log.md"), encoding: .utf8))?.contains("Boats at anchor. Calm sea.") == true
        }

        try focusWindow(named: "^Quire$", of: app)
        try xdotool(["key", "ctrl+q"])
        try waitUntil("quire quits") { !app.isRunning }
        XCTAssertEqual(app.terminationStatus, 0)
    }

    // MARK: Helpers

    /// Presses `key` and waits until the app reports the focus in `place` (``MainWindow/focusPlace``).
    private func press(_ key: String, focusing place: String, in reports: ReportLines) throws {
        let mark = reports.count
        try xdotool(["key", key])
        try waitForFocus(place, after: mark, in: reports, key)
    }

    /// Presses `key` until the focus is in `place`, at most `limit` times; each press waits for the
    /// focus to move before the next is sent.
    private func press(_ key: String, until place: String, atMost limit: Int, in reports: ReportLines) throws {
        let start = reports.count
        for _ in 0..<limit {
            let mark = reports.count
            try xdotool(["key", key])
            do {
                try waitUntil("\(key) moves the focus") { reports.focus(after: mark) != nil }
            } catch let timeout as WaitTimedOut {
                throw WaitTimedOut(what: timeout.what + " (on the way to \(place) it went to: \(reports.focusLines(after: start).joined(separator: ", ")))")
            }
            if reports.focus(after: mark) == place { return }
        }
        throw WaitTimedOut(what: "\(key) reaches \(place) (it went to: \(reports.focusLines(after: start).joined(separator: ", ")))")
    }

    /// Waits until the last `focus` line after line `mark` names `place`.
    private func waitForFocus(_ place: String, after mark: Int, in reports: ReportLines, _ key: String) throws {
        do {
            try waitUntil("\(key) moves the focus to \(place)") { reports.focus(after: mark) == place }
        } catch let timeout as WaitTimedOut {
            throw WaitTimedOut(what: timeout.what + " (the focus went to: \(reports.focusLines(after: mark).joined(separator: ", ")))")
        }
    }

    /// Starts `quire` over `library`; with `reports`, the app prints what it shows
    /// (``FeltSpeed``) and `reports` collects the lines.
    private func launch(library: URL, reporting reports: ReportLines? = nil) throws -> Process {
        let process = Process()
        process.executableURL = Self.quireExecutable
        process.arguments = ["--library", library.path]
        var variables = environment
        if let reports {
            variables["QUIRE_REPORT_FELT_SPEED"] = "1"
            let pipe = Pipe()
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                // At the end of the output (quire quit), stop reading: Foundation would call back
                // with nothing for ever, and its dispatch source crashed the test process once.
                if data.isEmpty { handle.readabilityHandler = nil } else { reports.append(data) }
            }
            process.standardOutput = pipe
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.environment = variables
        try process.run()
        return process
    }

    /// Presses Ctrl+N once and returns the ID of the new, untitled article it made (it is saved
    /// at once).
    @discardableResult
    private func createArticle(in library: URL) throws -> UUID {
        let earlier = try blocking { try await Library(url: library).articles(matching: ArticleQuery()).map(\.id) }
        try xdotool(["key", "ctrl+n"])
        var created: UUID?
        try waitUntil("Ctrl+N creates an article") {
            created = try blocking { try await Library(url: library).articles(matching: ArticleQuery()) }
                .first { $0.title.isEmpty && !earlier.contains($0.id) }?.id
            return created != nil
        }
        return created!
    }

    /// The keys that XTEST (through which xdotool types) holds down on the display. A key whose
    /// press reached the X server without its release swallows the next press of that key,
    /// whichever window it is meant for.
    static func keysHeldDown() throws -> [String] {
        let state = try Tool.run("xinput", ["query-state", "Virtual core XTEST keyboard"])
        return state.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasSuffix("=down") }
    }

    /// Waits for a visible window of `process` whose name matches, gives it the keyboard focus,
    /// and returns its id. (Windows that tests of this process left on the display share names.)
    @discardableResult
    private func focusWindow(named pattern: String, of process: Process) throws -> String {
        var window = ""
        // GTK may replace a window's X window while it opens: search again until focusing works.
        try waitUntil("a window named \(pattern) appears and takes the focus") {
            let found = try ProgramRun(URL(filePath: "/usr/bin/xdotool"), ["search", "--all", "--onlyvisible", "--pid", "\(process.processIdentifier)", "--name", pattern])
            window = found.output.split(separator: "\n").last.map(String.init) ?? ""
            guard !window.isEmpty else { return false }
            return try ProgramRun(URL(filePath: "/usr/bin/xdotool"), ["windowfocus", "--sync", window]).status == 0
        }
        return window
    }

    private func xdotool(_ arguments: [String]) throws {
        _ = try Tool.run("xdotool", arguments)
    }

    private static func article(titled title: String, in url: URL) async throws -> ArticleSnapshot? {
        let library = try Library(url: url, createIfMissing: false)
        guard let summary = try await library.articles(matching: ArticleQuery()).first(where: { $0.title == title }) else { return nil }
        return try await library.article(summary.id)
    }
}

/// The lines a child process prints, collected as they come (on the pipe's reading thread).
private final class ReportLines: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func append(_ data: Data) {
        lock.withLock { text += String(decoding: data, as: UTF8.self) }
    }

    /// The complete lines so far (a line still being written is left out).
    private var lines: [String] {
        lock.withLock { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// How many complete lines there are so far: a mark for ``lines(after:)``.
    var count: Int { lines.count }

    /// The complete lines after the first `mark`.
    func lines(after mark: Int) -> [String] { Array(lines.dropFirst(mark)) }

    /// How many complete lines so far start with `name`.
    func count(of name: String) -> Int {
        lines.filter { $0.hasPrefix(name + " ") }.count
    }

    /// The places of the `focus` lines after the first `mark`, in order.
    func focusLines(after mark: Int) -> [String] {
        lines(after: mark).filter { $0.hasPrefix("focus ") }.map { String($0.dropFirst("focus ".count)) }
    }

    /// Where the last `focus` line after the first `mark` put the focus; nil when there is none.
    func focus(after mark: Int) -> String? { focusLines(after: mark).last }
}
