import Foundation
import Library
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
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else {
            throw XCTSkip("needs xdotool (meson-helpers/packages.sh installs it)")
        }
    }

    func testTypedArticleIsSavedAfterAPauseAndIsThereAfterQuitAndRelaunch() throws {
        let library = try makeTemporaryFolder().appending(path: "library.quire")
        let app = try launch(library: library)
        defer { if app.isRunning { app.terminate() } }
        try focusWindow(named: "^Quire$", of: app)

        // Keys sent into quire from this test process are sometimes lost (one letter or space
        // in about half of the runs at 20 ms a key, rarely at 60 ms), although the same binary,
        // steps and timing driven from a shell script lost none in 26 runs, nor did a plain GTK 4
        // entry in 10. Not understood yet: an attempt whose saved text is exactly the typed text
        // minus a lost key or two is typed again in a new article; anything else fails the test.
        let title = "Harbour notes"
        let body = "The tide came in early and the boats sat high."
        var saved: ArticleSnapshot?
        for attempt in 1...3 {
            let id = try createArticle(in: library)
            try xdotool(["type", "--delay", "60", title])
            try xdotool(["key", "Return"])
            try xdotool(["type", "--delay", "60", body])
            // The autosave after a second's pause puts title and body in the store.
            saved = try savedText(of: id, in: library, typedTitle: title, typedBody: body)
            if saved?.title == title && saved?.body == body { break }
            let lostKeysOnly = saved.map { Self.isTyping($0.title, minusLostKeysOf: title) && Self.isTyping($0.body, minusLostKeysOf: body) }
            guard lostKeysOnly == true else {
                XCTFail("attempt \(attempt): the article holds \(String(describing: saved?.title)): \(String(describing: saved?.body))")
                return
            }
            print("KeyboardDrivenAppTests: attempt \(attempt) lost keys: \(saved!.title): \(saved!.body)")
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
        let typist = Process()
        typist.executableURL = URL(filePath: "/usr/bin/xdotool")
        typist.arguments = ["type", "--delay", "60", sentence]
        try typist.run()
        defer { if typist.isRunning { typist.terminate() } }
        var recovered: RecoveredDraft?
        try waitUntil("draft recovery holds a part of the body") {
            recovered = try blocking { try await Library(url: library).unrecoveredDrafts() }.first
            return (recovered?.body.count ?? 0) >= 20
        }
        kill(app.processIdentifier, SIGKILL)
        typist.terminate()
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

    // MARK: Helpers

    private func launch(library: URL) throws -> Process {
        let process = Process()
        process.executableURL = Self.quireExecutable
        process.arguments = ["--library", library.path]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Presses Ctrl+N until a new, untitled article is in the library (it is saved at once) and
    /// returns its ID: a window that has just taken the focus may miss the first key press.
    @discardableResult
    private func createArticle(in library: URL) throws -> UUID {
        let earlier = try blocking { try await Library(url: library).articles(matching: ArticleQuery()).map(\.id) }
        for _ in 0..<5 {
            try xdotool(["key", "ctrl+n"])
            for _ in 0..<40 {
                let untitled = try blocking { try await Library(url: library).articles(matching: ArticleQuery()) }
                    .first { $0.title.isEmpty && !earlier.contains($0.id) }
                if let untitled { return untitled.id }
                usleep(50_000)
            }
        }
        throw WaitTimedOut(what: "Ctrl+N creates an article")
    }

    /// The article's text once the autosave has stored what was typed: the typed text, or, when
    /// keys were lost, what the store holds once it has stopped changing for two seconds.
    private func savedText(of id: UUID, in library: URL, typedTitle: String, typedBody: String) throws -> ArticleSnapshot? {
        var last: ArticleSnapshot?
        var unchanged = 0
        for _ in 0..<400 {
            let current = try blocking { try await Library(url: library).article(id) }
            if current.title == typedTitle && current.body == typedBody { return current }
            let typedSomething = !current.title.isEmpty || !current.body.isEmpty
            unchanged = current.title == last?.title && current.body == last?.body && typedSomething ? unchanged + 1 : 0
            if unchanged >= 40 { return current }
            last = current
            usleep(50_000)
        }
        return last
    }

    /// Whether `saved` is `typed` with at most two characters left out and nothing else changed.
    static func isTyping(_ saved: String, minusLostKeysOf typed: String) -> Bool {
        guard saved.count <= typed.count, typed.count - saved.count <= 2 else { return false }
        var rest = Substring(saved)
        for character in typed where rest.first == character { rest.removeFirst() }
        return rest.isEmpty
    }

    /// Waits for a visible window of `process` whose name matches, gives it the keyboard focus,
    /// and returns its id. (Windows that tests of this process left on the display share names.)
    @discardableResult
    private func focusWindow(named pattern: String, of process: Process) throws -> String {
        var window = ""
        // GTK may replace a window's X window while it opens: search again until focusing works.
        try waitUntil("a window named \(pattern) appears and takes the focus") {
            let found = try Self.run(URL(filePath: "/usr/bin/xdotool"), ["search", "--all", "--onlyvisible", "--pid", "\(process.processIdentifier)", "--name", pattern])
            window = found.output.split(separator: "\n").last.map(String.init) ?? ""
            guard !window.isEmpty else { return false }
            return try Self.run(URL(filePath: "/usr/bin/xdotool"), ["windowfocus", "--sync", window]).status == 0
        }
        return window
    }

    private func xdotool(_ arguments: [String]) throws {
        let result = try Self.run(URL(filePath: "/usr/bin/xdotool"), arguments)
        guard result.status == 0 else {
            throw ToolFailure(command: "xdotool " + arguments.joined(separator: " "), status: result.status, output: result.errors)
        }
    }

    private static func article(titled title: String, in url: URL) async throws -> ArticleSnapshot? {
        let library = try Library(url: url, createIfMissing: false)
        guard let summary = try await library.articles(matching: ArticleQuery()).first(where: { $0.title == title }) else { return nil }
        return try await library.article(summary.id)
    }

    /// Runs async library code from a synchronous test on the main thread (the library works
    /// on its own queues, never on the main one).
    private func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, any Error>?
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { result = .success(try await body()) } catch { result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try result!.get()
    }
}
