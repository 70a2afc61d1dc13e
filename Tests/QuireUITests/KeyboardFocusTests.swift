import CGtk
import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// Where the keyboard focus goes with real keys (xdotool, XTEST) in the app's window, at a
/// moment a writer found it going astray: the first key after Ctrl+F while the search field is
/// still hidden.
final class KeyboardFocusTests: MainWindowTestCase, @unchecked Sendable {
    /// A space as the very first key after Ctrl+F, typed before the search field is shown (its bar
    /// opens animated), goes into the field, as a letter does (GTK's bar hands on letters only).
    func testASpaceTypedAtOnceAfterCtrlFReachesTheSearchField() throws {
        try typeAtOnceAfterCtrlF(["key", "space"], expecting: " log")
    }

    /// An arrow as the very first key after Ctrl+F, before the field is shown, stays in the field
    /// (it moves the cursor), and the letters after it go there too.
    func testAnArrowTypedAtOnceAfterCtrlFStaysInTheSearchField() throws {
        try typeAtOnceAfterCtrlF(["key", "Down"], expecting: "log")
    }

    /// Ctrl+F, `first` and "log", all sent before the main loop runs again, with the search bar's
    /// opening animated as on a writer's desktop; the field must end up holding `expected`.
    private func typeAtOnceAfterCtrlF(_ first: [String], expecting expected: String) throws {
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
            try await self.resize(window, to: 1200)
            try await self.until { gtk_window_is_active(window.window.windowPointer) != 0 && window.articleList.count == 1 }
            XCTAssertTrue(window.sidebarPane.focusFirstChild())

            // Every key reaches the X server before the main loop runs again, so before the
            // animation's first frame.
            for keys in [["key", "ctrl+f"], first, ["type", "log"]] {
                XCTAssertEqual(try Self.run(URL(filePath: "/usr/bin/xdotool"), keys).status, 0)
            }
            try await self.until { window.searchBar.isSearchModeEnabled && window.searchEntry.isMapped }
            do {
                try await self.until { window.searchEntry.text == expected }
            } catch {
                XCTFail("the field holds “\(window.searchEntry.text)”, not “\(expected)”; the focus is in \(window.focusPlace)")
            }
            XCTAssertEqual(window.focusPlace, "search")
        }
    }
}
