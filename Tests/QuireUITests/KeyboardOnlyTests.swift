import CGtk
import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// The main window worked with the keyboard alone, on real key presses (XTEST through `xdotool`)
/// under Xvfb: Tab, Shift+Tab, F6, arrows, Return, Escape and the mnemonics, never a click and
/// never a focus set by the test. A writer reaches every control needed to search, open an
/// article, write, tag it, look at the sync status and resolve a conflict.
final class KeyboardOnlyTests: MainWindowTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireXdotool()
    }

    func testEverythingAWriterNeedsCanBeReachedAndDoneWithTheKeyboard() throws {
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Harbour log", body: "Boats at anchor."))
            let base = ArticleContent(title: "Field notes", body: "First line.\nThe shared line.\nLast line.\n")
            let mine = ArticleContent(title: "Field notes", body: "First line.\nThe shared line, as I wrote it.\nLast line.\n")
            let theirs = ArticleContent(title: "Field notes", body: "First line.\nThe shared line, as the server has it.\nLast line.\n")
            let article = try await library.createArticle(mine)
            try await library.recordConflict(articleID: article.id, base: base, local: mine, remote: theirs, baseRevision: 1, remoteRevision: 2)
        }
        drive(url) { window in
            try await self.until { window.conflictBanner.count == 1 }
            window.window.present()
            try await self.until { gtk_window_is_active(window.window.windowPointer) != 0 }
            // Xvfb runs no window manager: give the window the X focus, or keys go where the pointer is.
            try press(["search", "--onlyvisible", "--pid", "\(getpid())", "--name", "^Quire", "windowfocus", "--sync"])

            // Search: F6 to the sidebar (Ctrl+F in the editor finds in the article), Ctrl+F, the
            // words, Tab into the list, an arrow key opens the article.
            try await self.walk("F6", in: window) { $0.isInside(window.sidebarPane) }
            try await self.key("ctrl+f", in: window)
            try await self.until { window.searchEntry.hasFocus || window.window.focusedWidget?.isInside(window.searchEntry) == true }
            try press(["type", "--delay", "20", "Harbour"])
            try await self.until { window.searchEntry.text == "Harbour" }
            try await self.until { self.titles(window) == ["Harbour log"] }
            try await self.walk("Tab", in: window) { $0.isInside(window.articleList.listView.widget) }
            try await self.key("Home", in: window)
            try await self.until { window.session?.article.title == "Harbour log" }

            // F6 moves to the editor; what is typed is saved.
            try await self.key("F6", in: window)
            try await self.until { window.editor.bodyView.hasFocus }
            try press(["key", "ctrl+End"])
            try press(["type", "--delay", "20", " Calm sea."])
            let id = try XCTUnwrap(window.session?.article.id)
            try await self.until { try await window.library.article(id).body == "Boats at anchor. Calm sea." }

            // Shift+Tab goes back up to the tag entry; Return adds the tag typed.
            try await self.walk("shift+Tab", in: window) { $0.isInside(window.details.tagChips.entry) || $0 === window.details.tagChips.entry }
            try press(["type", "--delay", "20", "harbour"])
            try await self.key("Return", in: window)
            try await self.until { try await window.library.article(id).tags == ["harbour"] }

            // F6 visits the sidebar and the list, in the order they stand, and comes back.
            try await self.key("F6", in: window)
            try await self.until { window.window.focusedWidget?.isInside(window.sidebarPane) == true }
            try await self.key("F6", in: window)
            try await self.until { window.window.focusedWidget?.isInside(window.listPane) == true }
            try await self.key("shift+F6", in: window)
            try await self.until { window.window.focusedWidget?.isInside(window.sidebarPane) == true }

            // Tab reaches the sync status; Return opens it and Escape closes it.
            try await self.walk("Tab", in: window) { $0 === window.syncStatus.widget || $0.isInside(window.syncStatus.widget) }
            try await self.key("Return", in: window)
            try await self.until { window.syncStatus.widget.popover?.isVisible == true }
            try await self.key("Escape", in: window)
            try await self.until { window.syncStatus.widget.popover?.isVisible == false }

            // Tab reaches the conflict banner's Resolve; Return opens the dialog, Alt+T keeps theirs.
            let banner = window.conflictBanner
            try await self.walk("Tab", in: window) { $0.isInside(banner.widget) }
            try await self.key("Return", in: window)
            try await self.until { banner.dialog?.window.isOpen == true }
            let dialog = try XCTUnwrap(banner.dialog)
            try await self.until { gtk_window_is_active(dialog.window.windowPointer) != 0 }
            try press(["key", "alt+t"])
            await banner.resolution()
            XCTAssertNil(banner.failure)
            XCTAssertEqual(banner.lastOutcome?.resolution, .keepTheirs)
            let open = try await window.library.openConflicts()
            XCTAssertTrue(open.isEmpty)
        }
    }

    /// Presses `key` and lets the main loop run until the window has handled it (its next frame).
    @MainActor
    private func key(_ key: String, in window: MainWindow) async throws {
        try press(["key", key])
        var drawn = false
        gtk_widget_queue_draw(window.window.widgetPointer)
        window.window.afterNextFrame { drawn = true }
        try await until { drawn }
    }

    /// Presses `key` (Tab or Shift+Tab) until the focused widget is one `target` accepts, waiting
    /// after each press until the focus has moved. In the article's text, where Tab indents,
    /// Ctrl+Tab leaves it, as GTK's text views have it. Fails after 40 presses.
    @MainActor
    private func walk(_ key: String, in window: MainWindow, line: UInt = #line, to target: @MainActor (Widget) -> Bool) async throws {
        var visited: [String] = []
        for _ in 0..<40 {
            let focus = window.window.focusedWidget
            if let focus, target(focus) { return }
            visited.append(focus?.typeName ?? "nothing")
            let inText = window.editor.bodyView.hasFocus
            try press(["key", inText ? "ctrl+" + key : key])
            try await until(line) { window.window.focusedWidget?.widgetPointer != focus?.widgetPointer }
        }
        XCTFail("\(key) never reached the control; it went through \(visited)", line: line)
    }
}
