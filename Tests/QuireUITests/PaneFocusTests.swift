import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// The keyboard focus between the panes (sidebar, list, editor), in a window narrow enough that
/// its leaflet folds and shows one pane at a time, and in a wide one: F6 lands in the pane it
/// names and chooses no other place in the sidebar; an article chosen in the list with a real
/// key takes the focus to its text when folded, and leaves it in the list when not.
final class PaneFocusTests: MainWindowTestCase, @unchecked Sendable {
    func testF6InAFoldedWindowWalksThePanesWithoutChoosingAnotherPlace() throws {
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: "Low tide at six."))
        }
        drive(url) { window in
            self.settleAnimations()
            try await self.resize(window, to: 700)
            try await self.until { window.leaflet.isFolded && window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            window.editor.focusBody()
            let nextPane = try XCTUnwrap(window.window.action(named: "focus-next-pane"))

            // From the text, F6 wraps round to the sidebar: its selected place takes the focus.
            nextPane.activate()
            try await self.nextFrame(of: window.window)
            XCTAssertEqual(window.focusPlace, "sidebar")
            XCTAssertEqual(window.sidebar.selected, .all, "the place stays chosen")
            XCTAssertEqual(window.articleList.count, 1, "the list still shows All Articles")

            // On into the list, then into the text again.
            nextPane.activate()
            try await self.nextFrame(of: window.window)
            XCTAssertEqual(window.focusPlace, "articles")
            nextPane.activate()
            try await self.nextFrame(of: window.window)
            XCTAssertEqual(window.focusPlace, "text")
            XCTAssertEqual(window.sidebar.selected, .all)
        }
    }

    func testHomeInTheListOpensTheFirstArticleAndTheFocusGoesToItsTextOnlyWhenFolded() throws {
        try requireXdotool()
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: "Low tide at six.", tags: ["coastal"]))
            _ = try await library.createArticle(ArticleContent(title: "Field notes", body: "First line.", tags: ["notes"]))
        }
        drive(url) { window in
            self.settleAnimations()
            try await self.giveKeyboard(to: window)
            try await self.until { window.articleList.count == 2 }
            let first = self.titles(window)[0]
            let nextPane = try XCTUnwrap(window.window.action(named: "focus-next-pane"))

            // Folded: the last article open, the focus left in its tag entry, F6 to the sidebar
            // and into the list, Home.
            try await self.resize(window, to: 700)
            try await self.until { window.leaflet.isFolded }
            try self.open(self.titles(window)[1], in: window)
            XCTAssertTrue(window.details.tagChips.entry.grabFocus())
            nextPane.activate()
            nextPane.activate()
            try await self.nextFrame(of: window.window)
            XCTAssertEqual(window.focusPlace, "articles")
            try press(["key", "Home"])
            try await self.until { window.session?.article.title == first }
            try await self.nextFrame(of: window.window)
            XCTAssertEqual(window.focusPlace, "text", "folded, the article opened is read from its text")

            // Wide again (the leaflet still shows the list as its page): the list keeps the focus.
            try self.open(self.titles(window)[1], in: window)
            XCTAssertTrue(window.details.tagChips.entry.grabFocus())
            nextPane.activate()
            nextPane.activate()
            try await self.resize(window, to: 1200)
            try await self.until { !window.leaflet.isFolded }
            XCTAssertEqual(window.focusPlace, "articles")
            try press(["key", "Home"])
            try await self.until { window.session?.article.title == first }
            try await self.nextFrame(of: window.window)
            XCTAssertEqual(window.focusPlace, "articles", "unfolded, the list stays in sight and keeps the focus")
        }
    }
}
