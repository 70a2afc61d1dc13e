import CGtk
import Foundation
import GtkKit
import ObjectGraph
import XCTest

// Library: the article's sync fields, which only the library sets, are set here as the sync worker leaves them.
@testable import Library
@testable import QuireUI

/// Issue 23 in the app, over a real library: an article deleted here and changed on the server is
/// restored from the Trash and edited, and the banner's dialog is answered with Keep Theirs. When
/// the restore and the edit came from another program while the dialog asked about an article
/// deleted here, its answer (Keep Their Version, Delete Anyway) is not carried out: the dialog
/// asks again as an edit conflict. The edited text survives as a copy, the dialog says so before,
/// and the toast after; screenshots of both dialogs.
final class LiveConflictUITests: MainWindowTestCase, @unchecked Sendable {
    static let base = "First line.\nThe shared line.\nLast line.\n"
    static let mine = "First line.\nThe shared line, as I wrote it before deleting it.\nLast line.\n"
    static let theirs = "First line.\nThe shared line, as the server has it.\nLast line.\n"
    static let laterLine = "A line written after the restore.\n"
    /// The article's ID (each test has a library of its own).
    static let id = UUID()

    /// A library whose article "Field notes" was synced at revision 3, edited and moved to the
    /// Trash here, and met by the server's edit at revision 5: the conflict the sync worker
    /// records (deleted here, edited on the server).
    private func deletedHereLibrary() throws -> URL {
        try makeLibrary { library in
            let id = try await library.createArticle(ArticleContent(title: "Field notes", body: Self.base), id: Self.id).id
            try await library.container.performBackgroundTask { context in
                for operation in try context.fetch(FetchRequest<SyncOperation>()) { context.delete(operation) }
                let article = try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id)).first
                article?.serverRevision = 3
                article?.syncState = .synced
                let base = ArticleBase(context: context)
                base.articleID = id
                base.revision = 3
                base.content = ArticleContent(title: "Field notes", body: Self.base)
                _ = try context.save()
            }
            try await library.editArticle(id, body: Self.mine)
            try await library.moveToTrash([id])
            try await library.container.performBackgroundTask { context in
                let operation = try context.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == id)).first
                operation?.state = .conflicted
                operation?.precondition = .revision
                operation?.baseRevision = 3
                _ = try context.save()
            }
            try await library.recordConflict(
                articleID: id, base: ArticleContent(title: "Field notes", body: Self.base), local: nil,
                remote: ArticleContent(title: "Field notes", body: Self.theirs), baseRevision: 3, remoteRevision: 5)
        }
    }

    func testRestoreFromTheTrashEditAndKeepTheirsKeepsTheEditedText() throws {
        let url = try deletedHereLibrary()
        let screenshots = try screenshotFolder()
        drive(url) { window in
            let id = Self.id
            let banner = window.conflictBanner
            try await self.until { banner.count == 1 }

            window.sidebar.select(.trash)
            try self.open("Field notes", in: window)
            XCTAssertTrue(window.window.activateAction(named: "restore-article"))
            await window.waitForPendingWork()
            let restored = try await window.library.openConflicts()
            XCTAssertEqual(restored.map(\.kind), [.editedOnBothSides], "the restore made it an edit conflict")

            window.sidebar.select(.all)
            try self.open("Field notes", in: window)
            var end = GtkTextIter()
            gtk_text_buffer_get_end_iter(window.editor.buffer.textBufferPointer, &end)
            gtk_text_buffer_insert(window.editor.buffer.textBufferPointer, &end, Self.laterLine, -1)
            try await self.until { try await window.library.article(id).body == Self.mine + Self.laterLine }
            // The autosave's commit has returned, or is about to: "Saved" follows it.
            try await self.until { window.editor.saveState == .saved }

            XCTAssertTrue(banner.actions.activateAction(named: "resolve"))
            try await self.until { banner.dialog?.window.isOpen == true }
            let dialog = try XCTUnwrap(banner.dialog)
            let view = try XCTUnwrap(dialog.editView, "an edit conflict now, not a deletion")
            XCTAssertEqual(view.mineBuffer.text, Self.mine + Self.laterLine, "this device's side is the article as it stands")
            XCTAssertEqual(view.theirsBuffer.text, Self.theirs)
            XCTAssertEqual(self.tooltip(of: "Keep _Theirs", in: dialog.window),
                           "Take the server’s version and keep this device’s text as “Field notes (conflicted copy)”")
            XCTAssertTrue(self.labels(in: dialog.window).contains {
                $0.hasSuffix("Keep Theirs also keeps this device’s text as “Field notes (conflicted copy)”.")
            })
            try await self.screenshot(dialog.window, to: screenshots.appending(path: "conflict-keep-theirs-keeps-a-copy.png").path)

            XCTAssertTrue(view.actions.activateAction(named: "keep-theirs"))
            await banner.resolution()
            XCTAssertNil(banner.failure)
            let outcome = try XCTUnwrap(banner.lastOutcome)
            XCTAssertTrue(outcome.summary.english.hasPrefix("Took the server's version of “Field notes”."), outcome.summary.english)
            XCTAssertTrue(outcome.summary.english.contains("kept as “Field notes (conflicted copy)”"), outcome.summary.english)
            let copy = try await window.library.article(try XCTUnwrap(outcome.copy?.id))
            XCTAssertEqual(copy.body, Self.mine + Self.laterLine, "the edited text survives")
            XCTAssertNil(copy.trashed)
            let kept = try await window.library.article(id).body
            XCTAssertEqual(kept, Self.theirs)
            try await self.until { window.editor.body == Self.theirs }   // the open article shows what was kept
            XCTAssertTrue(window.session?.save() ?? false)
            let afterSave = try await window.library.article(id).body
            XCTAssertEqual(afterSave, Self.theirs, "and its next save sends nothing older")
            XCTAssertEqual(banner.count, 0)
        }
    }

    /// The issue's app path with real input (XTEST through `xdotool`): a mouse click on Restore in
    /// the Trash, the later line typed on the keyboard, a click on the banner's Resolve and Alt+T
    /// (Keep _Theirs) in the dialog. The typed line survives as a copy; screenshot of the window
    /// after.
    func testTheIssuesAppPathWithRealClicksAndKeys() throws {
        try requireXdotool()
        let url = try deletedHereLibrary()
        let screenshots = try screenshotFolder()
        drive(url) { window in
            let id = Self.id
            let banner = window.conflictBanner
            try await self.until { banner.count == 1 }
            window.window.present()

            window.sidebar.select(.trash)
            try self.open("Field notes", in: window)
            try await self.click(try XCTUnwrap(self.button("_Restore", in: window.window)), in: window.window)
            try await self.until { try await window.library.openConflicts().map(\.kind) == [.editedOnBothSides] }
            let restored = try await window.library.article(id)
            XCTAssertNil(restored.trashed)

            window.sidebar.select(.all)
            try self.open("Field notes", in: window)
            XCTAssertTrue(window.editor.bodyView.grabFocus())
            try await self.until { window.editor.bodyView.hasFocus }
            try press(["key", "ctrl+End"])
            try press(["type", "--delay", "20", Self.laterLine.trimmingCharacters(in: .newlines)])
            try await self.until { try await window.library.article(id).body == Self.mine + Self.laterLine.trimmingCharacters(in: .newlines) }

            try await self.click(try XCTUnwrap(self.button("_Resolve", in: banner.widget)), in: window.window)
            try await self.until { banner.dialog?.window.isOpen == true }
            let dialog = try XCTUnwrap(banner.dialog)
            let view = try XCTUnwrap(dialog.editView)
            XCTAssertEqual(view.mineBuffer.text, Self.mine + Self.laterLine.trimmingCharacters(in: .newlines), "what was typed")
            try await self.until { gtk_window_is_active(dialog.window.windowPointer) != 0 }
            try press(["key", "alt+t"])
            await banner.resolution()
            XCTAssertNil(banner.failure)

            let outcome = try XCTUnwrap(banner.lastOutcome)
            XCTAssertEqual(outcome.resolution, .keepTheirs)
            let copy = try await window.library.article(try XCTUnwrap(outcome.copy?.id))
            XCTAssertEqual(copy.body, Self.mine + Self.laterLine.trimmingCharacters(in: .newlines), "the typed line survives")
            XCTAssertEqual(copy.title, "Field notes (conflicted copy)")
            let kept = try await window.library.article(id)
            XCTAssertEqual(kept.body, Self.theirs)
            let open = try await window.library.openConflicts()
            XCTAssertTrue(open.isEmpty)
            try await self.screenshot(window.window, to: screenshots.appending(path: "conflict-kept-theirs-with-a-copy.png").path)
        }
    }

    /// The dialog opened while the article was still in the Trash ("deleted here"); another
    /// program restored and edited it meanwhile. Keep Their Version was answered to a question
    /// that no longer holds (its copy would not be in the Trash, as the dialog said), so the
    /// dialog opens again as the edit conflict it is now; Keep Theirs there keeps the edited text
    /// as a copy.
    func testKeepTheirVersionAfterARestoreAndEditElsewhereAsksAgainAndKeepsTheEditedText() throws {
        let url = try deletedHereLibrary()
        let screenshots = try screenshotFolder()
        drive(url) { window in
            let id = Self.id
            let banner = window.conflictBanner
            let view = try await self.restoredElsewhereWhileTheDialogAsks(in: window, answering: "restore") { dialog in
                let message = dialog.window.pointer(as: AdwMessageDialog.self)
                XCTAssertEqual(String(cString: adw_message_dialog_get_heading(message)), "Article Changed Elsewhere")
                XCTAssertEqual(String(cString: adw_message_dialog_get_response_label(message, "restore")), "_Keep Their Version")
                XCTAssertEqual(String(cString: adw_message_dialog_get_response_label(message, "delete")), "_Delete Anyway")
                let body = String(cString: adw_message_dialog_get_body(message))
                XCTAssertTrue(body.hasSuffix("Keeping it also keeps this device's text in the Trash as “Field notes (conflicted copy)”."), body)
                try await self.screenshot(dialog.window, to: screenshots.appending(path: "conflict-deleted-here.png").path)
            }
            XCTAssertEqual(self.tooltip(of: "Keep _Theirs", in: view.window),
                           "Take the server’s version and keep this device’s text as “Field notes (conflicted copy)”")

            XCTAssertTrue(view.actions.activateAction(named: "keep-theirs"))
            await banner.resolution()
            XCTAssertNil(banner.failure)
            let outcome = try XCTUnwrap(banner.lastOutcome)
            XCTAssertEqual(outcome.kind, .editedOnBothSides)
            let copy = try await window.library.article(try XCTUnwrap(outcome.copy?.id))
            XCTAssertEqual(copy.body, Self.mine + Self.laterLine, "the edited text survives")
            XCTAssertNil(copy.trashed)
            let kept = try await window.library.article(id).body
            XCTAssertEqual(kept, Self.theirs)
            XCTAssertTrue(outcome.summary.english.contains("kept as “Field notes (conflicted copy)”"), outcome.summary.english)
        }
    }

    /// The dialog opened while the article was in the Trash; another program restored and edited
    /// it meanwhile, and the writer answers Delete Anyway. Keep Mine would now send the restored
    /// text over the server's: nothing is carried out, and the dialog opens again as the edit
    /// conflict it has become, where the writer decides once more.
    func testDeleteAnywayAfterARestoreElsewhereAsksAgain() throws {
        let url = try deletedHereLibrary()
        drive(url) { window in
            let id = Self.id
            let banner = window.conflictBanner
            let view = try await self.restoredElsewhereWhileTheDialogAsks(in: window, answering: "delete")
            let article = try await window.library.article(id)
            XCTAssertNil(article.trashed, "Delete Anyway was not carried out")
            // The writer is told why the dialog asks again, by the time it does.
            let why = "The conflict changed while you decided, so nothing was changed. Look at it again."
            let shown = window.toastOverlay.descendants(ofType: Label.self).map(\.text)
            XCTAssertTrue(shown.contains(why), "no toast says why the dialog asks again")

            XCTAssertTrue(view.actions.activateAction(named: "keep-mine"))
            await banner.resolution()
            XCTAssertNil(banner.failure)
            XCTAssertEqual(banner.lastOutcome?.sends, .put)
            let kept = try await window.library.article(id)
            XCTAssertEqual(kept.body, Self.mine + Self.laterLine)
            XCTAssertNil(kept.trashed)
        }
    }

    // MARK: Helpers

    /// Opens the banner's dialog on the conflict "deleted here" (`beforeTheRestore` looks at it),
    /// lets another program (`quire restore`, `quire edit`) restore and edit the article while it
    /// is open, and answers `response`. The answer is not carried out: returns the dialog opened
    /// again as the edit conflict it is now.
    @MainActor
    private func restoredElsewhereWhileTheDialogAsks(
        in window: MainWindow, answering response: String, beforeTheRestore: (ConflictDialog) async throws -> Void = { _ in }
    ) async throws -> EditConflictView {
        let banner = window.conflictBanner
        try await until { banner.count == 1 }
        XCTAssertTrue(banner.actions.activateAction(named: "resolve"))
        try await until { banner.dialog?.window.isOpen == true }
        let first = try XCTUnwrap(banner.dialog)
        XCTAssertNil(first.editView, "shown as deleted here")
        try await beforeTheRestore(first)

        let elsewhere = try Library(url: window.library.url)
        try await elsewhere.restore([Self.id])
        try await elsewhere.editArticle(Self.id, body: Self.mine + Self.laterLine)

        adw_message_dialog_response(first.window.pointer(as: AdwMessageDialog.self), response)
        try await until { banner.dialog != nil && banner.dialog !== first && banner.dialog?.window.isOpen == true }
        XCTAssertNil(banner.lastOutcome, "nothing was carried out against the old question")
        let view = try XCTUnwrap(banner.dialog?.editView, "asked again as the edit conflict it is now")
        XCTAssertEqual(view.mineBuffer.text, Self.mine + Self.laterLine)
        let open = try await window.library.openConflicts()
        XCTAssertEqual(open.map(\.kind), [.editedOnBothSides])
        return view
    }

    @MainActor
    private func tooltip(of buttonLabel: String, in window: Window) -> String? {
        window.descendants(ofType: gtk_button_get_type())
            .first { gtk_button_get_label($0.pointer()).map { String(cString: $0) } == buttonLabel }
            .flatMap { gtk_widget_get_tooltip_text($0.widgetPointer).map { String(cString: $0) } }
    }

    /// The button labelled `label` (mnemonic included) inside `widget`.
    @MainActor
    private func button(_ label: String, in widget: Widget) -> Widget? {
        widget.descendants(ofType: gtk_button_get_type())
            .first { gtk_button_get_label($0.pointer()).map { String(cString: $0) } == label && $0.isMapped }
    }

    /// Clicks the middle of `widget` with the mouse, as a person does (the window is at the
    /// screen's corner: Xvfb runs no window manager), where the window's next frame draws it.
    @MainActor
    private func click(_ widget: Widget, in window: Window) async throws {
        try await nextFrame(of: window)
        var bounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(widget.widgetPointer, window.widgetPointer, &bounds), 0)
        var dx = 0.0
        var dy = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window.widgetPointer), &dx, &dy)
        let x = Int((Double(bounds.origin.x + bounds.size.width / 2) + dx).rounded())
        let y = Int((Double(bounds.origin.y + bounds.size.height / 2) + dy).rounded())
        try press(["mousemove", "--sync", "\(x)", "\(y)", "click", "1"])
    }

    @MainActor
    private func labels(in window: Window) -> [String] {
        window.descendants(ofType: gtk_label_get_type()).map { String(cString: gtk_label_get_label($0.opaquePointer)) }
    }

    /// Writes the window as drawn (``renderWhenDrawn(_:to:)``), and checks what was written.
    @MainActor
    private func screenshot(_ window: Window, to path: String) async throws {
        try await renderWhenDrawn(window, to: path)
        let image = try Texture(contentsOfFile: path)
        XCTAssertEqual(image.width, window.width)
        XCTAssertGreaterThan(Set(image.pixels()).count, 64, "text and widgets are drawn")
    }
}
