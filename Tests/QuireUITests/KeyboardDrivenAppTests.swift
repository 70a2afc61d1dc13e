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

        try createArticle(in: library)
        // 60 ms a key, a fast typist's pace. At 20 ms, Xvfb + XTEST lost one key in about half
        // of the runs (a letter or space anywhere, in the title or the body), in builds where
        // the same test passed many times before; 60 ms has not lost one.
        try xdotool(["type", "--delay", "60", "Harbour notes"])
        try xdotool(["key", "Return"])
        try xdotool(["type", "--delay", "60", "The tide came in early and the boats sat high."])

        // The autosave after a second's pause puts title and body in the store.
        var saved: ArticleSnapshot?
        do {
            try waitUntil("the typed article is saved") {
                saved = try blocking { try await Self.article(titled: "Harbour notes", in: library) }
                return saved?.body == "The tide came in early and the boats sat high."
            }
        } catch {
            // Say what the keystrokes did reach.
            let held = try blocking { try await Library(url: library).articles(matching: ArticleQuery()).map { "\($0.title): \($0.excerpt)" } }
            XCTFail("the library holds \(held)")
            throw error
        }
        try xdotool(["key", "ctrl+q"])
        try waitUntil("quire quits") { !app.isRunning }
        XCTAssertEqual(app.terminationStatus, 0)

        // Started again, the library shows it: one article with its outbox operation, no draft to recover.
        let relaunched = try launch(library: library)
        defer { if relaunched.isRunning { relaunched.terminate() } }
        try focusWindow(named: "^Quire$", of: relaunched)
        let article = try XCTUnwrap(try blocking { try await Self.article(titled: "Harbour notes", in: library) })
        XCTAssertEqual(article.body, "The tide came in early and the boats sat high.")
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

    /// Presses Ctrl+N until the new, untitled article is in the library (it is saved at once):
    /// a window that has just taken the focus may miss the first key press.
    private func createArticle(in library: URL) throws {
        for _ in 0..<5 {
            try xdotool(["key", "ctrl+n"])
            for _ in 0..<40 {
                if try blocking({ try await Self.article(titled: "", in: library) }) != nil { return }
                usleep(50_000)
            }
        }
        throw WaitTimedOut(what: "Ctrl+N creates an article")
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
