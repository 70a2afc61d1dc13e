import CGtk
import Foundation
import GtkKit
import ObjectGraph
import SyncClient
import XCTest

@testable import Library
@testable import QuireUI

/// The Trash in the library window and articles dragged onto the sidebar, in the real app over
/// temporary libraries: Restore puts an article back where it was and selects the next, Undo on
/// the toast of a move to the Trash brings it back, a row's drag content dropped on a folder,
/// All Articles or the Trash moves it, the place under a drag is outlined, and a read-only
/// library offers none of it. Every outcome is checked in the store.
final class TrashAndDragTests: MainWindowTestCase, @unchecked Sendable {
    func testRestorePutsTheArticleBackInItsFolderAndSelectsTheNextInTheTrash() throws {
        let ids = IDs()
        let url = try makeLibrary { library in
            try await library.createFolder(named: "Essays")
            try await library.createFolder(named: "Old")
            ids.alpha = try await library.createArticle(ArticleContent(title: "Alpha", body: "a", folder: "Essays")).id
            ids.beta = try await library.createArticle(ArticleContent(title: "Beta", body: "b")).id
            ids.gamma = try await library.createArticle(ArticleContent(title: "Gamma", body: "c", folder: "Old")).id
            try await library.moveToTrash([ids.gamma, ids.beta, ids.alpha])
            // Gamma's folder goes while it is in the Trash.
            try await library.deleteFolder(named: "Old")
        }
        drive(url) { window in
            let restore = try XCTUnwrap(window.window.action(named: "restore-article"))
            XCTAssertFalse(restore.isEnabled, "nothing to restore outside the Trash")
            XCTAssertTrue(self.headerButton("Move to Trash", in: window).isVisible)
            XCTAssertFalse(self.headerButton("Restore from Trash", in: window).isVisible)

            window.sidebar.select(.trash)
            XCTAssertTrue(self.headerButton("Restore from Trash", in: window).isVisible, "Restore takes the place of Move to Trash")
            XCTAssertFalse(self.headerButton("Move to Trash", in: window).isVisible)
            XCTAssertFalse(restore.isEnabled, "no article selected")
            XCTAssertEqual(self.titles(window), ["Gamma", "Beta", "Alpha"], "last changed first")

            try self.open("Gamma", in: window)
            XCTAssertTrue(restore.isEnabled)
            XCTAssertTrue(window.window.activateAction(named: "restore-article"))
            await window.waitForPendingWork()
            let gamma = try await Library(url: url).article(ids.gamma)
            XCTAssertNil(gamma.trashed)
            XCTAssertNil(gamma.folder, "its folder was deleted: it comes back outside any folder")
            try await self.until { self.titles(window) == ["Beta", "Alpha"] }
            XCTAssertEqual(window.session?.articleID, ids.beta, "the article that took its place opens")

            // The last one's place goes to the one before it.
            try self.open("Alpha", in: window)
            XCTAssertTrue(window.window.activateAction(named: "restore-article"))
            await window.waitForPendingWork()
            let alpha = try await Library(url: url).article(ids.alpha)
            XCTAssertNil(alpha.trashed)
            XCTAssertEqual(alpha.folder, "Essays", "back in its folder")
            try await self.until { self.titles(window) == ["Beta"] }
            XCTAssertEqual(window.session?.articleID, ids.beta)

            let trashed = try await Library(url: url).articles(matching: ArticleQuery(filter: .trash)).map(\.id)
            XCTAssertEqual(trashed, [ids.beta])
            window.sidebar.select(.folder("Essays"))
            XCTAssertEqual(self.titles(window), ["Alpha"])
        }
    }

    func testUndoOnTheToastOfAMoveToTrashBringsTheArticleBack() throws {
        let ids = IDs()
        let url = try makeLibrary { library in
            try await library.createFolder(named: "Essays")
            ids.beta = try await library.createArticle(ArticleContent(title: "Beta", body: "b", folder: "Essays")).id
            ids.alpha = try await library.createArticle(ArticleContent(title: "Salt & <Pepper>", body: "a", folder: "Essays")).id
        }
        drive(url) { window in
            try await self.until { window.sidebar.folders.count == 1 }
            window.sidebar.select(.folder("Essays"))
            try self.open("Salt & <Pepper>", in: window)
            XCTAssertTrue(window.window.activateAction(named: "trash-article"))
            await window.waitForPendingWork()
            let trashed = try await Library(url: url).article(ids.alpha).trashed
            XCTAssertNotNil(trashed)
            try await self.until { self.titles(window) == ["Beta"] }
            XCTAssertEqual(window.session?.articleID, ids.beta, "the next article opens")

            let toast = try XCTUnwrap(window.trashToast)
            XCTAssertEqual(toast.title, "“Salt &amp; &lt;Pepper&gt;” moved to Trash", "the title is escaped for the toast's markup")
            XCTAssertEqual(toast.articleID, ids.alpha)
            // The writer clicks Undo: the toast's own button, which activates the toast's action.
            var undo: Widget?
            try await self.until {
                undo = window.toastOverlay.descendants(ofType: gtk_button_get_type()).first {
                    gtk_button_get_label($0.pointer(as: GtkButton.self)).map { String(cString: $0) } == "_Undo"
                }
                return undo?.isMapped == true
            }
            XCTAssertNotEqual(gtk_widget_activate(try XCTUnwrap(undo).widgetPointer), 0)
            // A button clicks when its press animation ends.
            try await self.until { try await window.library.article(ids.alpha).trashed == nil }
            await window.waitForPendingWork()
            let restored = try await Library(url: url).article(ids.alpha)
            XCTAssertNil(restored.trashed)
            XCTAssertEqual(restored.folder, "Essays")
            XCTAssertNil(window.trashToast)
            try await self.until { window.session?.articleID == ids.alpha }
            XCTAssertEqual(Set(self.titles(window)), ["Beta", "Salt & <Pepper>"])

            // Two moves in a row: the second toast replaces the first, and its Undo is the one offered.
            try self.open("Beta", in: window)
            XCTAssertTrue(window.window.activateAction(named: "trash-article"))
            await window.waitForPendingWork()
            let first = try XCTUnwrap(window.trashToast)
            try self.open("Salt & <Pepper>", in: window)
            XCTAssertTrue(window.window.activateAction(named: "trash-article"))
            await window.waitForPendingWork()
            XCTAssertEqual(window.trashToast?.articleID, ids.alpha)
            XCTAssertFalse(window.trashToast?.toast === first.toast)
        }
    }

    func testADraggedRowDroppedOnTheSidebarMovesTheArticle() throws {
        let ids = IDs()
        let url = try makeLibrary { library in
            try await library.createFolder(named: "Essays")
            try await library.createFolder(named: "Notes")
            ids.beta = try await library.createArticle(ArticleContent(title: "Beta", body: "b")).id
            ids.alpha = try await library.createArticle(ArticleContent(title: "Alpha", body: "a", folder: "Essays")).id
        }
        drive(url) { window in
            try await self.until { window.sidebar.folders.count == 2 }
            let sidebar = window.sidebar
            XCTAssertEqual(Set(sidebar.dropTargets.keys), [.all, .folder("Essays"), .folder("Notes"), .trash], "Favorites only lists")
            let row = ArticleRow(draggable: true)
            row.show(try self.article(ids.alpha, in: window))
            // What a drag of the row carries is what a drop on the sidebar takes.
            let drag = try XCTUnwrap(row.dragSource?.prepare())
            XCTAssertEqual(try ArticleDrag.contentType.string(from: drag), ids.alpha.uuidString)

            XCTAssertTrue(try XCTUnwrap(sidebar.dropTargets[.folder("Notes")]).drop(drag))
            await window.waitForPendingWork()
            let inNotes = try await Library(url: url).article(ids.alpha).folder
            XCTAssertEqual(inNotes, "Notes")
            try await self.until { sidebar.countText(ofFolder: "Notes") == "1" && sidebar.countText(ofFolder: "Essays") == "0" }
            XCTAssertFalse(try XCTUnwrap(sidebar.dropTargets[.folder("Notes")]).drop(drag), "already there: nothing to do")

            XCTAssertTrue(try XCTUnwrap(sidebar.dropTargets[.all]).drop(drag))
            await window.waitForPendingWork()
            let unfiled = try await Library(url: url).article(ids.alpha).folder
            XCTAssertNil(unfiled, "All Articles takes it out of its folder")
            try await self.until { sidebar.countText(ofFolder: "Notes") == "0" }
            XCTAssertFalse(try XCTUnwrap(sidebar.dropTargets[.all]).drop(drag))

            // The open article dropped on the Trash: trashed, with Undo, and the next one opens.
            try self.open("Alpha", in: window)
            XCTAssertTrue(try XCTUnwrap(sidebar.dropTargets[.trash]).drop(drag))
            await window.waitForPendingWork()
            let trashed = try await Library(url: url).article(ids.alpha).trashed
            XCTAssertNotNil(trashed)
            try await self.until { self.titles(window) == ["Beta"] }
            XCTAssertEqual(window.session?.articleID, ids.beta)
            XCTAssertEqual(window.trashToast?.title, "“Alpha” moved to Trash")
            XCTAssertEqual(window.trashToast?.articleID, ids.alpha)

            // An article in the Trash is not dragged, nor taken when dropped.
            try await self.until { try self.article(ids.alpha, in: window).trashed != nil }
            row.show(try self.article(ids.alpha, in: window))
            XCTAssertNil(row.dragSource?.prepare())
            XCTAssertFalse(try XCTUnwrap(sidebar.dropTargets[.folder("Essays")]).drop(drag))
            XCTAssertFalse(try XCTUnwrap(sidebar.dropTargets[.trash]).drop(drag))

            XCTAssertTrue(window.window.activateAction("win.undo-trash", target: ids.alpha.uuidString))
            await window.waitForPendingWork()
            let restored = try await Library(url: url).article(ids.alpha)
            XCTAssertNil(restored.trashed)
            XCTAssertNil(restored.folder)
        }
    }

    func testThePlaceUnderADraggedArticleIsOutlined() throws {
        let url = try makeLibrary { library in try await library.createFolder(named: "Essays") }
        drive(url) { window in
            try await self.until { window.sidebar.folders.count == 1 }
            let target = try XCTUnwrap(window.sidebar.dropTargets[.folder("Essays")])
            let row = Widget(retaining: try XCTUnwrap(gtk_event_controller_get_widget(target.controller.opaquePointer)))
            XCTAssertTrue(row.isA(gtk_list_box_row_get_type()))
            // Both pictures at the same size: the window may still be taking its size.
            try await self.settledSize(of: row)
            let idle = try await self.drawnTexture(of: row).pixels()
            // GTK sets this state on the widget of the drop target under a drag.
            gtk_widget_set_state_flags(row.widgetPointer, GTK_STATE_FLAG_DROP_ACTIVE, 0)
            let hovered = try await self.drawnTexture(of: row).pixels()
            XCTAssertEqual(idle.count, hovered.count)
            // An outline changes at least the pixels along the row's edges.
            let changed = zip(idle, hovered).filter { $0 != $1 }.count
            XCTAssertGreaterThan(changed, 2 * (row.width + row.height), "the row is outlined while an article hovers over it")
            gtk_widget_unset_state_flags(row.widgetPointer, GTK_STATE_FLAG_DROP_ACTIVE)
        }
    }

    func testAReadOnlyLibraryOffersNoRestoreUndoOrDrops() throws {
        let ids = IDs()
        let url = try makeLibrary { library in
            try await library.createFolder(named: "Essays")
            ids.alpha = try await library.createArticle(ArticleContent(title: "Alpha", body: "a")).id
            try await library.moveToTrash([ids.alpha])
        }
        drive(url) { writable in
            // A second window over the same file opened read-only, as a library a newer Quire
            // wrote or one on a read-only disk opens.
            let library = try Library(url: url, createIfMissing: false, access: .readOnly(.permission), upgrade: nil)
            let window = try MainWindow(
                application: try XCTUnwrap(writable.window.application), settings: nil, library: library,
                sync: SyncSession(library: library, settings: AccountSettings(libraryURL: url, keyring: nil)))
            defer { window.window.destroy() }
            XCTAssertTrue(window.sidebar.dropTargets.isEmpty, "no place takes drops")
            XCTAssertFalse(window.drop(ids.alpha, on: .folder("Essays")))
            XCTAssertFalse(window.articleList.rowsAreDraggable, "rows are not dragged")

            window.sidebar.select(.trash)
            try await self.until { window.articleList.count == 1 }
            XCTAssertTrue(window.articleList.select(window.articleList.article(at: 0).objectID))
            XCTAssertNotNil(window.session)
            XCTAssertTrue(self.headerButton("Restore from Trash", in: window).isVisible)
            XCTAssertEqual(window.window.action(named: "restore-article")?.isEnabled, false, "restore is off")
            XCTAssertEqual(window.window.action(named: "undo-trash")?.isEnabled, false, "undo is off")
            _ = window.window.activateAction("win.restore-article")
            _ = window.window.activateAction("win.undo-trash", target: ids.alpha.uuidString)
            await window.waitForPendingWork()
            XCTAssertEqual(window.shownErrors, [])
            let stillTrashed = try await library.article(ids.alpha).trashed
            XCTAssertNotNil(stillTrashed)
        }
    }

    // MARK: Helpers

    /// Article IDs a library's fill sets and the test reads.
    final class IDs: @unchecked Sendable {
        var alpha = UUID()
        var beta = UUID()
        var gamma = UUID()
    }

    /// The article with `id` in the window's view context.
    @MainActor
    private func article(_ id: UUID, in window: MainWindow) throws -> StoredArticle {
        try XCTUnwrap(window.library.viewContext.fetch(FetchRequest<StoredArticle>(predicate: \.id == id, fetchLimit: 1)).first)
    }

    /// The header bar's button with this tooltip.
    @MainActor
    private func headerButton(_ tooltip: String, in window: MainWindow) -> Widget {
        let buttons = window.window.descendants(ofType: gtk_button_get_type()).filter {
            gtk_widget_get_tooltip_text($0.widgetPointer).map { String(cString: $0) } == tooltip
        }
        XCTAssertEqual(buttons.count, 1, tooltip)
        return buttons[0]
    }
}

extension Window {
    /// Activates a window action with a string parameter, as a toast's button or a menu item
    /// with a target does; false when the action is missing or off.
    @MainActor
    fileprivate func activateAction(_ detailedName: String, target: String) -> Bool {
        gtk_widget_activate_action_variant(widgetPointer, detailedName, g_variant_new_string(target)) != 0
    }
}
