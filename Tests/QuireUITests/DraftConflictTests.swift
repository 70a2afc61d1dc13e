import CGtk
import CStoreFaults
import Foundation
import GtkKit
import Library
import ObjectGraph
import XCTest

@testable import QuireUI

/// The editor's conflict resolutions never drop the writer's version before it is safe: Keep Both
/// that the library cannot write, and Keep Theirs that cannot read their version, keep the text in
/// the editor and in draft recovery and say so. A dialog the closing of the session opened (the
/// article left the list) carries out the writer's decision, and Decide Later there keeps the
/// writer's text for when the article opens again.
final class DraftConflictTests: MainWindowTestCase, @unchecked Sendable {
    func testKeepBothThatTheLibraryCannotWriteKeepsTheWritersText() throws {
        let folder = try makeFolderWithStoreFaults()
        let url = try makeLibrary(in: folder) { library in
            try await library.createArticle(ArticleContent(title: "Shared", body: "base"))
        }
        let heading = "Could not keep your version as a new article: it is still in the editor"
        drive(url, expectedErrorHeadings: [heading]) { window in
            try self.open("Shared", in: window)
            let session = try XCTUnwrap(window.session)
            let library = window.library
            window.editor.buffer.insertAtCursor("mine ")
            try await library.editArticle(session.articleID, body: "theirs")
            try await self.until { (try? library.viewContext.existingObject(with: session.objectID, as: StoredArticle.self))?.body == "theirs" }
            XCTAssertFalse(session.save(), "the save waits for the writer")
            let dialog = try XCTUnwrap(session.conflictDialog)
            try await self.until { try await library.unrecoveredDrafts().map(\.body) == ["mine base"] }

            // The disk is full as the writer keeps both.
            quire_faults_fail_writes_after(0)
            XCTAssertTrue(dialog.window.activateAction("conflict.keep-both"))
            quire_faults_fail_writes_after(-1)
            XCTAssertEqual(window.shownErrors.count, 1)
            let shown = window.shownErrors.first ?? ""
            XCTAssertTrue(shown.hasPrefix(heading + ": Quire cannot save to"), shown)
            XCTAssertEqual(window.editor.body, "mine base")
            XCTAssertTrue(session.hasUnsavedChanges)
            await window.waitForPendingWork()
            let kept = try await library.unrecoveredDrafts()
            XCTAssertEqual(kept.map(\.body), ["mine base"], "the recovery copy stays")
            let copiesAfterFailure = try await library.articles(matching: ArticleQuery(searchText: "conflicted copy"))
            XCTAssertEqual(copiesAfterFailure.count, 0)

            // With space again, the next save asks again, and Keep Both keeps both.
            XCTAssertFalse(session.save(), "the next save asks again")
            let again = try XCTUnwrap(session.conflictDialog)
            XCTAssertTrue(again.window.activateAction("conflict.keep-both"))
            XCTAssertEqual(window.editor.body, "theirs")
            let copies = try await library.articles(matching: ArticleQuery(searchText: "conflicted copy"))
            XCTAssertEqual(copies.map(\.title), ["Shared (conflicted copy)"])
            let copy = try await library.article(try XCTUnwrap(copies.first).id)
            XCTAssertEqual(copy.body, "mine base")
            try await self.until { try await library.unrecoveredDrafts().isEmpty }
        }
    }

    /// Keep Theirs when their version cannot be read (here: the article was deleted for good while
    /// the writer decided) says so, and keeps the writer's text instead of showing the editor's
    /// old text, or nothing, as theirs.
    func testKeepTheirsThatCannotReadTheirVersionSaysSoAndKeepsTheWritersText() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Shared", body: "base"))
        }
        let heading = "Could not read the article as it is now: your version is still in the editor"
        drive(url, expectedErrorHeadings: [heading]) { window in
            // A session outside the window's list: the list would close the window's own session
            // when the article leaves it.
            XCTAssertNil(window.session)
            let library = window.library
            let objectID = window.articleList.article(at: 0).objectID
            let editor = try EditorPane()
            let session = try DraftSession(
                objectID: objectID, viewContext: library.viewContext, library: library, recorder: window.recorder, editor: editor,
                window: window.window, report: { [weak window] heading, error in window?.showError(heading, error) })
            editor.buffer.insertAtCursor("mine ")
            try await library.editArticle(session.articleID, body: "theirs")
            try await self.until { (try? library.viewContext.existingObject(with: objectID, as: StoredArticle.self))?.body == "theirs" }
            XCTAssertFalse(session.save(), "the save waits for the writer")
            let dialog = try XCTUnwrap(session.conflictDialog)
            try await library.moveToTrash([session.articleID])
            _ = try await library.emptyTrash()

            XCTAssertTrue(dialog.window.activateAction("conflict.keep-theirs"))
            XCTAssertEqual(window.shownErrors.count, 1)
            let shown = window.shownErrors.first ?? ""
            XCTAssertTrue(shown.hasPrefix(heading + ": The article is no longer in the library"), shown)
            XCTAssertEqual(editor.body, "mine base")
            XCTAssertTrue(session.hasUnsavedChanges)
        }
    }

    /// Keep Mine in the dialog that the session's closing save opened (the writer moved the
    /// article to the Trash after another program changed it) saves the writer's text, and leaves
    /// the article the editor shows by then alone.
    func testKeepMineInTheDialogOfAClosedSessionSavesTheWritersText() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Shared", body: "base"))
            try await library.createArticle(ArticleContent(title: "Other", body: "other"))
        }
        drive(url) { window in
            let library = window.library
            let id = try await self.typeThenTrashAfterAnotherProgramsChange(in: window)
            let dialog = try await self.conflictDialog(over: window)
            try await self.until { self.titles(window) == ["Other"] }
            if window.session?.article.title != "Other" { try self.open("Other", in: window) }

            XCTAssertTrue(dialog.activateAction("conflict.keep-mine"))
            let saved = try await library.article(id).body
            XCTAssertEqual(saved, "mine base")
            XCTAssertEqual(window.editor.body, "other", "the editor still shows the other article")
            XCTAssertEqual(window.editor.saveState, .saved)
            XCTAssertEqual(window.session?.article.title, "Other")
            try await self.until { try await library.unrecoveredDrafts().isEmpty }
        }
    }

    /// Decide Later in that dialog leaves the store's text as it is, and keeps the writer's: the
    /// article opened again (the Trash toast's Undo) shows it unsaved, and its next save asks again.
    func testDecideLaterInTheDialogOfAClosedSessionKeepsTheWritersTextForTheNextOpening() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Shared", body: "base"))
        }
        drive(url) { window in
            let library = window.library
            let id = try await self.typeThenTrashAfterAnotherProgramsChange(in: window)
            let dialog = try await self.conflictDialog(over: window)
            XCTAssertTrue(dialog.activateAction("conflict.decide-later"))
            let stored = try await library.article(id).body
            XCTAssertEqual(stored, "theirs")
            try await self.until { try await library.unrecoveredDrafts().map(\.body) == ["mine base"] }

            try await self.until { window.trashToast != nil }
            window.undoTrash(id)
            try await self.until { window.session?.articleID == id }
            XCTAssertEqual(window.editor.body, "mine base", "the writer's text, not the store's")
            XCTAssertEqual(window.editor.saveState, .unsaved)
            let session = try XCTUnwrap(window.session)
            XCTAssertFalse(session.save(), "the next save asks again")
            let again = try XCTUnwrap(session.conflictDialog)
            XCTAssertTrue(again.window.activateAction("conflict.keep-both"))
            XCTAssertEqual(window.editor.body, "theirs")
            let copies = try await library.articles(matching: ArticleQuery(searchText: "conflicted copy"))
            let copy = try await library.article(try XCTUnwrap(copies.first).id)
            XCTAssertEqual(copy.body, "mine base")
            try await self.until { try await library.unrecoveredDrafts().isEmpty }
        }
    }

    /// Opens "Shared", types "mine " into it, has another program change its text to "theirs",
    /// and moves it to the Trash: the window closes its session first, and its save meets the
    /// change (or an autosave met it already). Returns the article's ID.
    @MainActor
    private func typeThenTrashAfterAnotherProgramsChange(in window: MainWindow) async throws -> UUID {
        try await until { self.titles(window).contains("Shared") }
        try open("Shared", in: window)
        let session = try XCTUnwrap(window.session)
        let (id, objectID, library) = (session.articleID, session.objectID, window.library)
        window.editor.buffer.insertAtCursor("mine ")
        try await library.editArticle(id, body: "theirs")
        try await until { (try? library.viewContext.existingObject(with: objectID, as: StoredArticle.self))?.body == "theirs" }
        window.trashSelectedArticle()
        XCTAssertNil(window.session)
        return id
    }

    /// The conflict dialog over the window, found among GTK's windows (nothing of the window's
    /// holds it once the session that opened it is closed).
    @MainActor
    private func conflictDialog(over window: MainWindow) async throws -> Window {
        var found: Window?
        try await until {
            let toplevels = gtk_window_list_toplevels()
            defer { g_list_free(toplevels) }
            var node = toplevels
            while let current = node {
                if let widget = current.pointee.data, widget != UnsafeMutableRawPointer(window.window.objectPointer) {
                    let candidate = Window(retaining: widget)
                    if candidate.transientFor?.objectPointer == window.window.objectPointer, candidate.isVisible { found = candidate }
                }
                node = current.pointee.next
            }
            return found != nil
        }
        return try XCTUnwrap(found)
    }
}
