import Foundation
import Library
import ObjectGraph
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The autosave runs off the main thread (Library's `saveEditorText`): the window goes on taking
/// the writer's keys while the store is slow to write, says "Saved" only once the text is in the
/// store, and saves what was typed meanwhile next, never an older text after a newer one.
final class AutosaveTests: MainWindowTestCase, @unchecked Sendable {
    func testTypingGoesOnWhileTheAutosaveWaitsForTheStore() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Harbour log", body: ""))
        }
        drive(url) { window in
            try self.open("Harbour log", in: window)
            let session = try XCTUnwrap(window.session)
            let id = session.articleID
            // Another program writing: the store takes no save until it is done.
            let lock = try StoreWriteLock(url)
            window.editor.buffer.insertAtCursor("Calm at dawn.")
            // The autosave a second later waits for the store while the main loop runs on (this
            // wait is the main loop running).
            try await self.until { window.editor.saveState == .saving }
            XCTAssertEqual(window.editor.saveStateText, "Saving…")
            window.editor.buffer.insertAtCursor(" Wind by noon.")
            XCTAssertEqual(window.editor.saveStateText, "Unsaved changes")
            let waiting = try await window.library.article(id)
            XCTAssertEqual(waiting.body, "", "nothing is in the store while it is held")

            lock.release()
            // "Saved" once the later text has committed: a connection of its own finds it.
            try await self.until { window.editor.saveStateText == "Saved" }
            let other = try Library(url: url)
            defer { other.close() }
            let saved = try await other.article(id)
            XCTAssertEqual(saved.body, "Calm at dawn. Wind by noon.")
            XCTAssertFalse(session.hasUnsavedChanges)
            // The view context (the window's list and title) sees the saved article too.
            let shown = try window.library.viewContext.existingObject(with: session.objectID, as: StoredArticle.self)
            XCTAssertEqual(shown.body, "Calm at dawn. Wind by noon.")
        }
    }

    func testQuittingWaitsForTheRunningAutosaveAndSavesWhatCameAfter() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Harbour log", body: ""))
        }
        let opened = OpenedArticle()
        drive(url) { window in
            try self.open("Harbour log", in: window)
            opened.id = try XCTUnwrap(window.session?.articleID)
            let lock = try StoreWriteLock(url)
            window.editor.buffer.insertAtCursor("Calm at dawn.")
            try await self.until { window.editor.saveState == .saving }
            window.editor.buffer.insertAtCursor(" Wind by noon.")
            // The store frees up only while the window is closing (quitting, below).
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 0.5)
                lock.release()
            }
        }
        let id = try XCTUnwrap(opened.id)
        let saved = try blocking { try await Library(url: url).article(id) }
        XCTAssertEqual(saved.body, "Calm at dawn. Wind by noon.", "the running save, then the rest")
    }
}

/// The article a test opened, kept for after the window has quit.
private final class OpenedArticle: @unchecked Sendable {
    var id: UUID?
}
