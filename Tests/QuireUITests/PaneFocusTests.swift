import CGtk
import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// F6 between the panes (sidebar, list, editor) in a window narrow enough that its leaflet folds
/// and shows one pane at a time: the focus lands in the pane F6 names and stays there, and moving
/// it chooses no other place in the sidebar.
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
}
