import CGtk
import Foundation
import GtkKit
import Library
import QuireTestSupport
import XCTest

@testable import QuireUI

/// Where the keys go (real keys, xdotool, XTEST) at a moment a writer found them going astray:
/// typed at once after Ctrl+F, while the search bar's opening animation still hides its field.
final class SearchFieldKeysTests: MainWindowTestCase, @unchecked Sendable {
    /// A writer who presses Ctrl+F and types at once finds what was typed in the search field,
    /// even while the bar's opening animation has not shown the field yet. The field has the
    /// focus from Ctrl+F on, but GTK drops a key on its way to a widget never realized, and the
    /// animation shows the field, and so realizes it, only in its second frame: the keyboard
    /// walk's "Harbour" searched "arbour" (here every key was lost).
    func testKeysTypedAtOnceAfterCtrlFReachTheSearchField() throws {
        try typeAtOnceAfterCtrlF([["type", "harbour"]], expecting: "harbour") { window in
            // The search runs on what the field holds.
            try await self.until { window.articleList.query.searchText == "harbour" }
            XCTAssertEqual(window.articleList.count, 1)
        }
    }

    /// A space as the very first key after Ctrl+F, before the field is shown, goes into the
    /// field, as a letter does (GTK's bar hands on letters only; the window's Space binding took it).
    func testASpaceTypedAtOnceAfterCtrlFReachesTheSearchField() throws {
        try typeAtOnceAfterCtrlF([["key", "space"], ["type", "log"]], expecting: " log")
    }

    /// Ctrl+F and `keys`, all sent before the main loop runs again (so before the animation's
    /// first frame), with the search bar's opening animated as on a writer's desktop (other tests
    /// turn animations off); the field must end up holding `expected`, with the focus, then `then`.
    private func typeAtOnceAfterCtrlF(
        _ keys: [[String]], expecting expected: String, then: @escaping @MainActor (MainWindow) async throws -> Void = { _ in }
    ) throws {
        try requireXdotool()
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Harbour log", body: "Boats at anchor."))
        }
        drive(url) { window in
            let settings = Object(retaining: UnsafeMutableRawPointer(gtk_settings_get_default()!))
            let animated: Bool = settings.property("gtk-enable-animations")
            settings.setProperty("gtk-enable-animations", true)
            defer { settings.setProperty("gtk-enable-animations", animated) }
            window.window.present()
            // Wide, so that the list and its search bar stand beside the sidebar.
            try await self.resize(window, to: 1200)
            try await self.until { gtk_window_is_active(window.window.windowPointer) != 0 && window.articleList.count == 1 }
            XCTAssertTrue(window.sidebarPane.focusFirstChild())
            XCTAssertFalse(window.searchEntry.isMapped, "the search bar is closed")

            for sent in [["key", "ctrl+f"]] + keys {
                XCTAssertEqual(try ProgramRun(URL(filePath: "/usr/bin/xdotool"), sent).status, 0)
            }
            try await self.until { window.searchBar.isSearchModeEnabled && window.searchEntry.isMapped }
            do {
                try await self.until { window.searchEntry.text == expected }
            } catch {
                XCTFail("the field holds “\(window.searchEntry.text)”, not “\(expected)”; the focus is in \(window.focusPlace)")
            }
            XCTAssertEqual(window.focusPlace, "search")
            try await then(window)
        }
    }
}
