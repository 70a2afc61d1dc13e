import CGtk
import Foundation
import GtkKit
import Library
import ObjectGraph
import SyncClient
import SyncProtocol
import XCTest

@testable import QuireUI

/// Issue 17 in the window: the editor's tag chips and status drop-down, the sidebar's Tags with
/// counts and menus, the status filter, Delete Folder with Undo, the list rows' status and tags.
/// Each test drives the real window over a temporary
/// library, checks what the library holds after the writer's action, and saves a screenshot
/// (into `QUIRE_TEST_SCREENSHOTS` when set).
final class TagsAndStatusUITests: MainWindowTestCase, @unchecked Sendable {
    private let harbour = UUID(), walking = UUID(), lists = UUID()

    private func library() throws -> URL {
        let (harbour, walking, lists) = (harbour, walking, lists)
        return try makeLibrary { library in
            try await library.createFolder(named: "Notes")
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: "Low tide at six.", folder: "Notes"), id: harbour)
            _ = try await library.createArticle(
                ArticleContent(title: "On walking", body: "Feet first.", folder: "Notes", tags: ["essay"], status: .ready), id: walking)
            _ = try await library.createArticle(ArticleContent(title: "Lists", body: "Milk.", tags: ["essay", "short"]), id: lists)
        }
    }

    /// Runs the window over the test library, 1200 pixels wide and without animations (so that
    /// screenshots show what a person sees once things settle); `folder` takes the screenshots.
    private func driveWideWindow(_ body: @escaping @MainActor (MainWindow, URL) async throws -> Void) throws {
        let url = try library()
        let folder = try screenshotFolder()
        drive(url) { window in
            self.settleAnimations()
            try await self.resize(window, to: 1200, height: 720)
            try await body(window, folder)
        }
    }

    /// The operations waiting in the outbox for an article: (change, tags, status) of each.
    @MainActor
    private func outbox(_ window: MainWindow, _ id: UUID) async throws -> [(SyncOperationChange, [String]?, ArticleStatus?)] {
        try await window.library.container.performBackgroundTask { context in
            try context.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == id)).map { operation in
                let content = try operation.contentToSend()
                return (operation.change, content?.tags, content?.status)
            }
        }
    }

    func testTagsAreAddedWithCompletionAndRemovedAndTheStatusChosenEachOneSaveWithItsOperation() throws {
        try driveWideWindow { window, folder in
            try await self.until { window.articleList.count == 3 }
            try self.open("Harbour", in: window)
            let chips = window.details.tagChips
            XCTAssertTrue(window.details.widget.isVisible)
            XCTAssertEqual(chips.tags, [])
            XCTAssertEqual(window.details.status.status, .draft)
            let id = try XCTUnwrap(window.session?.articleID)

            // Typing offers the library's tags that begin with the text; Tab takes the first, Return adds it.
            let field = try XCTUnwrap(chips.entry.descendants(ofType: Text.self).first)
            type("ESS", into: field)
            XCTAssertEqual(chips.suggestions, ["essay"])
            XCTAssertEqual(chips.hintText, "Tab: essay")
            // The completion is a hint beside the entry, in the window (no popover).
            try await self.renderWhenDrawn(window.window, to: folder.appending(path: "tag-completion-hint.png").path)
            XCTAssertTrue(chips.completeTyped())
            XCTAssertEqual(chips.entry.text, "essay")
            self.pressReturn(in: field)
            XCTAssertEqual(chips.entry.text, "")
            XCTAssertEqual(chips.tags, ["essay"])
            let tagsAfterFirst = try await window.library.article(id).tags
            XCTAssertEqual(tagsAfterFirst, ["essay"], "saved at once")
            // A new name makes a new tag.
            type("harbour notes", into: field)
            XCTAssertEqual(chips.suggestions, [])
            self.pressReturn(in: field)
            XCTAssertEqual(chips.tags, ["essay", "harbour notes"])
            let tagsAfterNew = try await window.library.article(id).tags
            XCTAssertEqual(tagsAfterNew, ["essay", "harbour notes"])
            XCTAssertEqual(try window.library.tagNamesInViewContext(), ["essay", "harbour notes", "short"])
            // A tag the article carries is not offered again, and Return on it adds nothing.
            type("es", into: field)
            XCTAssertEqual(chips.suggestions, [], "a tag the article carries is not offered")
            type("say", into: field)
            self.pressReturn(in: field)
            XCTAssertEqual(chips.tags, ["essay", "harbour notes"], "nor added twice")

            // The drop-down's list, as the writer opens it: a popover, captured on the whole screen.
            let dropDown = window.details.status.dropDown
            XCTAssertTrue(dropDown.activate(), "the drop-down opens its list")
            let list = try XCTUnwrap(dropDown.descendants(ofType: Popover.self).first)
            let choices = try await self.screenshotPopover(list, over: window.window, to: folder.appending(path: "status-drop-down.png").path) {
                gtk_popover_popdown(list.pointer(as: GtkPopover.self))
            }
            XCTAssertEqual(choices.filter { ["Draft", "Ready", "Published"].contains($0) }, ["Draft", "Ready", "Published"])

            window.details.status.choose(.published)
            let savedStatus = try await window.library.article(id).status
            XCTAssertEqual(savedStatus, .published)
            let operations = try await self.outbox(window, id)
            XCTAssertEqual(operations.count, 1, "each change rewrites the article's one pending operation")
            XCTAssertEqual(operations.first?.1, ["essay", "harbour notes"])
            XCTAssertEqual(operations.first?.2, .published)
            chips.entry.text = ""
            // The sidebar's counts follow: the new tag is listed, and essay counts Harbour too.
            try await self.until {
                window.sidebar.countText(of: .tag("harbour notes")) == "1" && window.sidebar.countText(of: .tag("essay")) == "3"
            }
            try await self.renderWhenDrawn(window.window, to: folder.appending(path: "editor-tags-and-status.png").path)

            // The chip's button removes its tag.
            let removeEssay = try XCTUnwrap(chips.widget.descendants(ofType: Button.self).first { $0.tooltipText == "Remove the tag “essay”" })
            // A button's activation clicks it after its press animation, once it is on screen.
            try await self.until { removeEssay.isMapped }
            XCTAssertTrue(removeEssay.activate())
            try await self.until { chips.tags == ["harbour notes"] }
            let tagsAfterRemoval = try await window.library.article(id).tags
            XCTAssertEqual(tagsAfterRemoval, ["harbour notes"])
            let operationTags = try await self.outbox(window, id).first?.1
            XCTAssertEqual(operationTags, ["harbour notes"])

            // The list's rows say the status and tags; a draft without tags would say nothing.
            try await self.until { self.shownDetails(window) == ["Published · harbour notes", "Ready · essay", "essay, short"] }
        }
    }

    func testTheTagEntryWorksFromTheKeyboard() throws {
        try requireXdotool()
        try driveWideWindow { window, _ in
            try await self.until { window.articleList.count == 3 }
            try self.open("Harbour", in: window)
            let chips = window.details.tagChips
            let id = try XCTUnwrap(window.session?.articleID)
            try await self.giveKeyboard(to: window)
            XCTAssertTrue(chips.entry.grabFocus())
            try await self.until { chips.entry.descendants(ofType: Text.self).first?.hasFocus == true }

            // Tab completes the library's tag, Return adds it; a new name and Return make a new tag.
            try press(["type", "--delay", "20", "ess"])
            try await self.until { chips.entry.text == "ess" }
            try press(["key", "Tab"])
            XCTAssertEqual(chips.entry.text, "essay")
            try press(["key", "Return"])
            try await self.until { chips.tags == ["essay"] }
            try press(["type", "--delay", "20", "tide"])
            try await self.until { chips.entry.text == "tide" }
            try press(["key", "Return"])
            try await self.until { chips.tags == ["essay", "tide"] }
            XCTAssertTrue(chips.entry.descendants(ofType: Text.self).first?.hasFocus == true, "the entry keeps the focus for the next tag")
            // Backspace in the empty entry removes the last tag.
            try press(["key", "BackSpace"])
            try await self.until { chips.tags == ["essay"] }
            let saved = try await window.library.article(id).tags
            XCTAssertEqual(saved, ["essay"])
        }
    }

    func testTheSidebarCountsTagsFiltersByTagAndStatusAndRenamesAndDeletesATagWithUndo() throws {
        try driveWideWindow { window, folder in
            let sidebar = window.sidebar
            try await self.until { sidebar.tags.count == 2 }
            XCTAssertEqual(sidebar.items, [.all, .favorites, .folder("Notes"), .tag("essay"), .tag("short"), .trash])
            XCTAssertEqual(sidebar.countText(of: .all), "3")
            XCTAssertEqual(sidebar.countText(of: .favorites), "0")
            XCTAssertEqual(sidebar.countText(of: .tag("essay")), "2")
            XCTAssertEqual(sidebar.countText(of: .tag("short")), "1")

            sidebar.select(.tag("essay"))
            try await self.until { Set(self.titles(window)) == ["On walking", "Lists"] }
            sidebar.filter(by: .ready)
            try await self.until { self.titles(window) == ["On walking"] }
            try await self.renderWhenDrawn(window.window, to: folder.appending(path: "sidebar-tags-and-status-filter.png").path)
            sidebar.filter(by: nil)
            try await self.until { self.titles(window).count == 2 }

            // The tag's menu renames it (the list follows), then deletes it, and Undo puts it back.
            let menu = try XCTUnwrap(sidebar.menu(of: .tag("essay"))?.menuModel)
            XCTAssertEqual(menu.items.map(\.action), ["win.rename-tag", "win.delete-tag"])
            window.renameTag("essay", to: "essays")
            try await self.until { sidebar.items.contains(.tag("essays")) && sidebar.selected == .tag("essays") }
            try await self.until { self.titles(window).count == 2 }
            try XCTUnwrap(window.window.action(named: "delete-tag")).activate(with: "essays")
            try await self.until { !sidebar.items.contains(.tag("essays")) }
            XCTAssertEqual(sidebar.selected, .all)
            let listsTags = try await window.library.article(self.lists).tags
            XCTAssertEqual(listsTags, ["short"])
            try XCTUnwrap(window.window.action(named: "undo-delete")).activate(with: "Tag “essays” deleted")
            try await self.until { sidebar.countText(of: .tag("essays")) == "2" }
            let walkingTagsBack = try await window.library.article(self.walking).tags
            XCTAssertEqual(walkingTagsBack, ["essays"])
            let listsTagsBack = try await window.library.article(self.lists).tags
            XCTAssertEqual(listsTagsBack, ["essays", "short"])
        }
    }

    func testDeletingAFolderFromItsMenuLeavesItsArticlesUnfiledAndUndoFilesThemBack() throws {
        try driveWideWindow { window, folder in
            let sidebar = window.sidebar
            try await self.until { sidebar.countText(ofFolder: "Notes") == "2" }
            let menu = try XCTUnwrap(sidebar.menu(of: .folder("Notes"))?.menuModel)
            XCTAssertEqual(menu.items.map(\.action), ["win.rename-folder-named", "win.delete-folder"])
            sidebar.select(.folder("Notes"))
            try XCTUnwrap(window.window.action(named: "delete-folder")).activate(with: "Notes")
            try await self.until { !sidebar.items.contains(.folder("Notes")) }
            XCTAssertEqual(sidebar.selected, .all)
            let harbourFolder = try await window.library.article(self.harbour).folder
            XCTAssertNil(harbourFolder, "the articles stay, in no folder")
            let walkingFolder = try await window.library.article(self.walking).folder
            XCTAssertNil(walkingFolder)
            XCTAssertEqual(window.undoToast?.titleMarkup, "Folder “Notes” deleted")
            try await self.renderWhenDrawn(window.window, to: folder.appending(path: "folder-deleted-undo-toast.png").path)

            // The toast's own Undo button, as the writer clicks it.
            let undo = try XCTUnwrap(window.toastOverlay.descendants(ofType: Button.self).first { $0.label == "_Undo" })
            try await self.until { undo.isMapped }
            XCTAssertTrue(undo.activate())
            try await self.until { sidebar.countText(ofFolder: "Notes") == "2" }
            XCTAssertEqual(sidebar.selected, .folder("Notes"))
            let harbourRefiled = try await window.library.article(self.harbour).folder
            XCTAssertEqual(harbourRefiled, "Notes")
            let walkingRefiled = try await window.library.article(self.walking).folder
            XCTAssertEqual(walkingRefiled, "Notes")
        }
    }

    func testTypingInTheEditorDoesNotRecountTheSidebarWhileTaggingDoes() throws {
        try driveWideWindow { window, _ in
            try await self.until { window.articleList.count == 3 && window.sidebar.countText(of: .tag("essay")) == "2" }
            try self.open("Harbour", in: window)
            let id = try XCTUnwrap(window.session?.articleID)
            try await self.until { window.folderRefresh?.isPending != true && !window.errors.hasPendingWork }
            let reads = window.countReads

            // Typing, then the autosave (the article, its outbox operation and recovery copies):
            // a recount would be scheduled as the save is seen, before the store shows it.
            window.editor.buffer.insertAtCursor(" High tide at noon.")
            try await self.until { try await window.library.article(id).body.contains("High tide at noon.") }
            XCTAssertNotEqual(window.folderRefresh?.isPending, true, "no recount is scheduled after an autosave")
            XCTAssertEqual(window.countReads, reads, "typing read no counts")

            // A tag added in the editor moves the counts: the sidebar recounts and shows them.
            try window.library.tagArticlesInViewContext([id], with: "essay")
            try await self.until { window.sidebar.countText(of: .tag("essay")) == "3" }
            XCTAssertEqual(window.countReads, reads + 1, "one recount for the one change")
        }
    }

    // The right-click tests are three, each in a window of its own: as one test (three menus, two
    // dialogs, six screen captures) the window outlived the application's 20-second watchdog at
    // a load of 20 ("Quire did not quit in time").

    func testARightClickOnAFolderRowOpensItsMenuAndRenameFolderTakesTheKeyboard() throws {
        try requireXdotool()
        try driveWideWindow { window, folder in
            let sidebar = window.sidebar
            try await self.until { sidebar.countText(ofFolder: "Notes") == "2" && window.articleList.count == 3 }

            // A right click on a folder's row opens its menu. Rename Folder…: the dialog offers
            // the name; Ctrl+A and typing replace it, Return renames.
            let folderMenu = try await self.rightClickOpensTheMenu(
                of: .folder("Notes"), in: window, screenshot: folder.appending(path: "folder-row-menu.png").path)
            XCTAssertTrue(["_Rename Folder…", "_Delete Folder"].allSatisfy(folderMenu.contains), "\(folderMenu)")
            let folderDialog = try await self.nameDialog(of: "rename-folder-named", for: "Notes", in: window)
            try await self.typeName("Field notes", into: folderDialog)
            try await self.renderWhenDrawn(folderDialog.window, to: folder.appending(path: "rename-folder-dialog.png").path)
            try press(["key", "Return"])
            try await self.until { sidebar.countText(ofFolder: "Field notes") == "2" }
            XCTAssertFalse(sidebar.items.contains(.folder("Notes")))
            let harbourFolder = try await window.library.article(self.harbour).folder
            XCTAssertEqual(harbourFolder, "Field notes")
        }
    }

    func testARightClickOnATagRowOpensItsMenuAndRenameTagTakesTheKeyboard() throws {
        try requireXdotool()
        try driveWideWindow { window, folder in
            let sidebar = window.sidebar
            try await self.until { sidebar.countText(of: .tag("essay")) == "2" && window.articleList.count == 3 }

            // Escape in the dialog leaves the tag as it was; Return renames it.
            let tagMenu = try await self.rightClickOpensTheMenu(
                of: .tag("essay"), in: window, screenshot: folder.appending(path: "tag-row-menu.png").path)
            XCTAssertTrue(["_Rename Tag…", "_Delete Tag"].allSatisfy(tagMenu.contains), "\(tagMenu)")
            let cancelled = try await self.nameDialog(of: "rename-tag", for: "essay", in: window)
            try await self.typeName("x", into: cancelled)
            try press(["key", "Escape"])
            try await self.until { !cancelled.window.isVisible }
            XCTAssertEqual(sidebar.countText(of: .tag("essay")), "2")
            try await self.typeName("essays", into: try await self.nameDialog(of: "rename-tag", for: "essay", in: window))
            try press(["key", "Return"])
            try await self.until { sidebar.countText(of: .tag("essays")) == "2" }
            let walkingTags = try await window.library.article(self.walking).tags
            XCTAssertEqual(walkingTags, ["essays"])

            // The renamed tag's row is made anew: a right click right after finds it laid out.
            let renamedMenu = try await self.rightClickOpensTheMenu(
                of: .tag("essays"), in: window, screenshot: folder.appending(path: "renamed-tag-row-menu.png").path)
            XCTAssertTrue(renamedMenu.contains("_Rename Tag…"), "\(renamedMenu)")
        }
    }

    func testARightClickOnAnArticleRowSelectsItAndOpensItsMenu() throws {
        try requireXdotool()
        try driveWideWindow { window, folder in
            try await self.until { window.articleList.count == 3 }
            try await self.giveKeyboard(to: window)
            let titles = { window.articleList.listView.widget.descendants(ofType: Label.self).filter { $0.text == "Lists" && $0.isMapped } }
            try await self.until { !titles().isEmpty }
            try await self.rightClick(in: window) { try XCTUnwrap(titles().first) }
            try await self.until { window.session?.articleID == self.lists }
            let rowMenu = try XCTUnwrap(window.articleList.openedRowMenu)
            try await self.until { rowMenu.isVisible }
            XCTAssertEqual(rowMenu.menuModel?.items.first?.action, "win.favorite")
            XCTAssertTrue(rowMenu.menuModel?.items.contains { $0.action == "win.trash-article" } == true)
            let rowItems = try await self.screenshotPopover(rowMenu, over: window.window, to: folder.appending(path: "article-row-menu.png").path) {
                try press(["key", "Escape"])
            }
            XCTAssertTrue(["Favorite", "Move to Folder", "Move to Trash"].allSatisfy(rowItems.contains), "\(rowItems)")
        }
    }

    // MARK: Helpers

    /// Gives the window the keyboard (``giveKeyboard(to:)``: no window manager gives it back when a
    /// dialog closes), right-clicks a sidebar row and checks that its menu opens, captured on the
    /// whole screen into `screenshot` (``screenshotPopover(_:over:to:closing:)``); Escape closes it.
    /// Returns the menu's item labels.
    @MainActor
    private func rightClickOpensTheMenu(of item: SidebarItem, in window: MainWindow, screenshot: String) async throws -> [String] {
        try await giveKeyboard(to: window)
        try await rightClick(in: window) { try XCTUnwrap(window.sidebar.row(of: item)) }
        let menu = try XCTUnwrap(window.sidebar.menu(of: item)?.popover)
        try await until { menu.isVisible }
        let labels = try await screenshotPopover(menu, over: window.window, to: screenshot) { try press(["key", "Escape"]) }
        try await until { !menu.isVisible }
        return labels
    }

    /// Runs the menu's rename action (`win.NAME` with the name as target) and returns its
    /// dialog once it has the keyboard, offering the old name.
    @MainActor
    private func nameDialog(of action: String, for name: String, in window: MainWindow) async throws -> FolderNameDialog {
        try XCTUnwrap(window.window.action(named: action)).activate(with: name)
        let dialog = try XCTUnwrap(window.nameDialog)
        XCTAssertEqual(dialog.entry.text, name)
        try await until { gtk_window_is_active(dialog.window.windowPointer) != 0 }
        return dialog
    }

    /// Replaces the dialog's name with real keys: Ctrl+A, then `text` typed.
    @MainActor
    private func typeName(_ text: String, into dialog: FolderNameDialog) async throws {
        try press(["key", "ctrl+a"])
        try press(["type", "--delay", "20", text])
        try await until { dialog.entry.text == text }
    }

    /// A real right click (xdotool) at the middle of the widget `find` finds: without a window
    /// manager Xvfb puts the window's surface at the screen's corner, and the window sits inside
    /// it at the surface's transform (its shadow). The widget is found after the window's next
    /// frame: the sidebar makes its rows anew whenever the counts change (a rename), and a row
    /// not laid out yet has no size and no place (seen 0×0 right after the rename: its middle
    /// was the list's corner, the click went to another row and no menu opened). The widget
    /// must be what the pointer lands on.
    @MainActor
    private func rightClick(in window: MainWindow, on find: () throws -> Widget) async throws {
        try await nextFrame(of: window.window)
        let widget = try find()
        var x = 0.0
        var y = 0.0
        let middle = (Double(widget.width) / 2, Double(widget.height) / 2)
        XCTAssertGreaterThan(widget.width, 0, "the widget is laid out")
        XCTAssertNotEqual(gtk_widget_translate_coordinates(widget.widgetPointer, window.window.widgetPointer, middle.0, middle.1, &x, &y), 0)
        let picked = try XCTUnwrap(gtk_widget_pick(window.window.widgetPointer, x, y, GTK_PICK_DEFAULT))
        XCTAssertTrue(picked == widget.widgetPointer || gtk_widget_is_ancestor(picked, widget.widgetPointer) != 0, "the click lands on the widget")
        var surfaceX = 0.0
        var surfaceY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window.window.widgetPointer), &surfaceX, &surfaceY)
        try press(["mousemove", "\(Int(x + surfaceX))", "\(Int(y + surfaceY))", "click", "3"])
    }

    /// Return in a text field: its `activate` keybinding signal, which the entry passes on.
    @MainActor
    private func pressReturn(in field: Text) {
        var instance = GValue()
        g_value_init(&instance, gtk_text_get_type())
        g_value_set_object(&instance, field.objectPointer)
        defer { g_value_unset(&instance) }
        g_signal_emitv(&instance, g_signal_lookup("activate", gtk_text_get_type()), 0, nil)
    }

    /// The status-and-tags lines the list's rows show, as drawn (hidden ones left out).
    @MainActor
    private func shownDetails(_ window: MainWindow) -> Set<String> {
        let labels = window.articleList.listView.widget.descendants(ofType: Label.self)
        return Set(labels.filter { $0.hasStyleClass("accent") && $0.isVisible }.map(\.text))
    }
}
