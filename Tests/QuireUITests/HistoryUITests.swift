import CGtk
import Foundation
import GtkKit
import Library
import ObjectGraph
import SyncClient
import XCTest

@testable import QuireUI

/// Version history in the window: the versions an editing session leaves (switching article, a
/// long pause, quitting), the History panel with its word-level highlighting, and Restore This Version as
/// one save with its outbox operation that the editor can undo. Screenshots go into
/// `QUIRE_TEST_SCREENSHOTS` when it is set.
final class HistoryUITests: MainWindowTestCase, @unchecked Sendable {
    private let harbour = UUID()

    /// Harbour, recorded once as it was written (“low”), then changed to “high”.
    private func library() throws -> URL {
        let harbour = harbour
        return try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: "The tide was low at six.\n\nGulls.\n"), id: harbour)
            try await library.endEditingSession(of: harbour)
            _ = try await library.editArticle(harbour, body: "The tide was high at six.\n\nGulls.\n")
            _ = try await library.createArticle(ArticleContent(title: "Lists", body: "Milk."))
        }
    }

    func testHistoryShowsTheWordsThatDifferAndRestoreIsOneSaveTheEditorCanUndo() throws {
        let url = try library()
        let folder = try screenshotFolder()
        drive(url) { window in
            try await self.until { window.articleList.count == 2 }
            try self.open("Harbour", in: window)
            XCTAssertTrue(window.window.activateAction(named: "history"))
            let panel = try XCTUnwrap(window.historyPanel)
            XCTAssertEqual(panel.versions.count, 1)
            XCTAssertEqual(panel.versions.first?.source, .edited)
            XCTAssertEqual(panel.chosen?.body, "The tide was low at six.\n\nGulls.\n", "the newest version is chosen")
            XCTAssertTrue(panel.heading.text.hasSuffix("· this device"))
            // One word differs: the line is marked, and inside it the word alone.
            XCTAssertEqual(panel.buffer.ranges(ofTag: EditConflictView.changedTag).map(panel.buffer.text(in:)), ["The tide was low at six.\n"])
            XCTAssertEqual(panel.buffer.ranges(ofTag: EditConflictView.changedWordTag).map(panel.buffer.text(in:)), ["low"])
            try await self.until { panel.window.isMapped }
            try await self.renderWhenDrawn(panel.window, to: folder.appending(path: "history-panel.png").path)

            XCTAssertTrue(panel.actions.activateAction(named: "restore"))
            XCTAssertEqual(window.editor.body, "The tide was low at six.\n\nGulls.\n")
            XCTAssertEqual(window.editor.saveStateText, "Saved")
            let restoredBody = try await window.library.article(self.harbour).body
            XCTAssertEqual(restoredBody, "The tide was low at six.\n\nGulls.\n", "saved at once")
            let operations = try await self.outbox(window)
            XCTAssertEqual(operations, ["The tide was low at six.\n\nGulls.\n"], "one pending operation carries the restored text")
            // The text the restore replaced was recorded first; history is never rewritten.
            let history = try window.library.historyInViewContext(of: self.harbour)
            XCTAssertEqual(history.map(\.source), [.beforeRestore, .edited])

            // Undo in the editor brings the replaced text back, as an edit the autosave saves.
            window.editor.focusBody()
            XCTAssertTrue(window.editor.actions.activateAction(named: "undo"))
            XCTAssertEqual(window.editor.body, "The tide was high at six.\n\nGulls.\n")
            try await self.until { try await window.library.article(self.harbour).body == "The tide was high at six.\n\nGulls.\n" }
            let operationsAfterUndo = try await self.outbox(window)
            XCTAssertEqual(operationsAfterUndo, ["The tide was high at six.\n\nGulls.\n"])
        }
    }

    func testTheHistorySizeLimitIsAPreferenceTheTrimmingFollows() throws {
        let url = try library()
        let harbour = harbour
        drive(url) { window in
            XCTAssertEqual(window.library.historySizeLimit, .standard)
            window.showPreferences()
            let page = try XCTUnwrap(window.shownEditorPreferences)
            XCTAssertEqual(page.historyPercentSpin.value, 10, "10 % of the library")
            XCTAssertEqual(page.historyMegabytesSpin.value, 200, "or 200 MB")
            // A second version, then a limit that holds only each article's latest one.
            try await window.library.endEditingSession(of: harbour)
            let before = try await window.library.history(of: harbour)
            XCTAssertEqual(before.count, 2)
            page.historyPercentSpin.value = 0
            page.historyMegabytesSpin.value = 0
            XCTAssertEqual(window.library.historySizeLimit, HistorySizeLimit(fractionOfLibrary: 0, bytes: 0))
            XCTAssertEqual(window.preferences.historySizeLimit, window.library.historySizeLimit)

            // The next session's end trims the history to the limit: the oldest version goes.
            _ = try await window.library.editArticle(harbour, body: "The tide was out at six.\n")
            try await window.library.endEditingSession(of: harbour)
            let after = try await window.library.history(of: harbour)
            XCTAssertEqual(after.map(\.id), [try XCTUnwrap(after.first?.id)])
            XCTAssertEqual(after.first?.wordCount, 6, "the latest version stays")
        }
    }

    func testSwitchingArticleAndALongPauseEachRecordAVersionOfTheSavedText() throws {
        let url = try library()
        drive(url) { window in
            window.editingPauseMilliseconds = 300
            try await self.until { window.articleList.count == 2 }
            try self.open("Harbour", in: window)
            let id = self.harbour
            XCTAssertEqual(try window.library.historyInViewContext(of: id).count, 1)

            window.editor.buffer.select(0..<0)
            gtk_text_buffer_insert_at_cursor(window.editor.buffer.textBufferPointer, "Wind. ", -1)
            // The pause saves the text and records it.
            try await self.until { try window.library.historyInViewContext(of: id).count == 2 }
            let paused = try XCTUnwrap(try window.library.historyInViewContext(of: id).first)
            XCTAssertEqual(try window.library.versionInViewContext(paused.id).body, "Wind. The tide was high at six.\n\nGulls.\n")

            window.editingPauseMilliseconds = 600_000
            gtk_text_buffer_insert_at_cursor(window.editor.buffer.textBufferPointer, "Rain. ", -1)
            try self.open("Lists", in: window)
            let switched = try window.library.historyInViewContext(of: id)
            XCTAssertEqual(switched.count, 3, "switching article ends the session")
            XCTAssertEqual(try window.library.versionInViewContext(try XCTUnwrap(switched.first?.id)).body, "Wind. Rain. The tide was high at six.\n\nGulls.\n")
            // Leaving again without an edit records nothing new.
            try self.open("Harbour", in: window)
            try self.open("Lists", in: window)
            XCTAssertEqual(try window.library.historyInViewContext(of: id).count, 3)
        }
    }

    func testTheSaveThatEndsASessionCommitsTheTextAndItsVersionInOneTransaction() throws {
        let url = try library()
        drive(url) { window in
            window.editingPauseMilliseconds = 600_000
            try await self.until { window.articleList.count == 2 }
            try self.open("Harbour", in: window)
            // Every commit to the store, as a context merging them sees each: one change per save.
            let watcher = window.library.container.newBackgroundContext()
            watcher.automaticallyMergesChangesFromParent = true
            let commits = CommitLog()
            let observation = watcher.performAndWait {
                watcher.addObserver { notification in
                    if case .objectsDidChange(let change) = notification { commits.append(change) }
                }
            }
            defer { observation.cancel() }
            // Typed and left at once, in one turn of the main loop: no autosave runs in between,
            // so switching article saves the text and ends the session.
            window.editor.buffer.select(0..<0)
            gtk_text_buffer_insert_at_cursor(window.editor.buffer.textBufferPointer, "Fog. ", -1)
            try self.open("Lists", in: window)

            // One save (one transaction) holds both: a crash or kill leaves the text and its
            // version, or neither.
            try await self.until { commits.all.contains { $0.inserted.contains { $0.entityName == "ArticleVersion" } } }
            let saves = commits.all
            let bodySaves = saves.filter { $0.refreshed.contains { $0.objectID.entityName == "Article" && $0.changedKeys.contains("body") } }
            let versionSaves = saves.filter { $0.inserted.contains { $0.entityName == "ArticleVersion" } }
            XCTAssertEqual(bodySaves.count, 1, "the text was saved once: \(saves)")
            XCTAssertEqual(versionSaves.count, 1, "one version: \(saves)")
            XCTAssertEqual(bodySaves.first?.inserted, versionSaves.first?.inserted, "the version is in the text's save")
            let versions = try window.library.historyInViewContext(of: self.harbour)
            XCTAssertEqual(versions.count, 2)
            XCTAssertEqual(try window.library.versionInViewContext(try XCTUnwrap(versions.first?.id)).body, "Fog. The tide was high at six.\n\nGulls.\n")
            let saved = try await window.library.article(self.harbour).body
            XCTAssertEqual(saved, "Fog. The tide was high at six.\n\nGulls.\n")
        }
    }

    func testQuittingEndsTheEditingSession() throws {
        let url = try library()
        drive(url) { window in
            window.editingPauseMilliseconds = 600_000
            try await self.until { window.articleList.count == 2 }
            try self.open("Harbour", in: window)
            gtk_text_buffer_insert_at_cursor(window.editor.buffer.textBufferPointer, "Storm. ", -1)
            // drive quits the application with the article open and its last words unsaved.
        }
        let harbour = harbour
        let history = try blocking {
            let library = try Library(url: url)
            defer { library.close() }
            let history = try await library.history(of: harbour)
            return (history.map(\.source), try await library.version(try XCTUnwrap(history.first).id).body)
        }
        XCTAssertEqual(history.0, [.edited, .edited], "quitting recorded a version")
        XCTAssertEqual(history.1, "Storm. The tide was high at six.\n\nGulls.\n")
    }

    @MainActor
    private func outbox(_ window: MainWindow) async throws -> [String?] {
        let id = harbour
        return try await window.library.container.performBackgroundTask { context in
            try context.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == id)).map { try $0.contentToSend()?.body }
        }
    }
}

/// The changes a merging context was told of, collected from its queue.
private final class CommitLog: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [ObjectsDidChange] = []

    func append(_ change: ObjectsDidChange) { lock.withLock { changes.append(change) } }
    var all: [ObjectsDidChange] { lock.withLock { changes } }
}
