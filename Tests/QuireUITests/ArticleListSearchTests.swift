import CGtk
import Foundation
import GtkKit
import Library
import ObjectGraph
import XCTest

@testable import QuireUI

/// A list shows its first screen of rows at once and its whole list after (a search's after a
/// pause in the typing): the rows shown stay first, and the article open in the editor stays
/// selected although the first screen does not list it.
final class ArticleListSearchTests: MainWindowTestCase, @unchecked Sendable {
    func testAListOpensWithItsFirstScreenAndReadsTheRestOnceItsRowsAreDrawn() throws {
        let url = try makeLibrary { library in
            for number in 0..<150 {
                try await library.createArticle(ArticleContent(title: "Note \(number)", body: "words"))
            }
        }
        drive(url) { window in
            XCTAssertEqual(window.articleList.count, ArticleList.firstScreenRowsBeforeLayout, "the window's first frame waits for no more")
            XCTAssertTrue(window.articleList.isAwaitingWholeList)
            try await self.until { window.articleList.count == 150 }
            XCTAssertFalse(window.articleList.isAwaitingWholeList)
            XCTAssertEqual(self.titles(window).first, "Note 149")
            XCTAssertEqual(self.titles(window).last, "Note 0")

            // A list shown after a search: its first screen, then the rest at once.
            gtk_editable_set_text(window.searchEntry.opaquePointer, "Note")
            try await self.until { window.articleList.query.searchText == "Note" }
            gtk_editable_set_text(window.searchEntry.opaquePointer, "")
            try await self.until { window.articleList.query.searchText == "" && window.articleList.count == 150 }
            XCTAssertFalse(window.articleList.isAwaitingWholeList)
        }
    }

    func testASearchShowsItsFirstScreenThenItsWholeListKeepingTheSelection() throws {
        let url = try makeLibrary { library in
            for number in 0..<150 {
                try await library.createArticle(ArticleContent(title: "Harbour \(number)", body: "tides and boats"))
            }
            try await library.createArticle(ArticleContent(title: "Inland", body: "fields"))
        }
        drive(url) { window in
            try await self.until { window.articleList.count == 151 }
            // The oldest harbour article: the last row of a search, newest first.
            try self.open("Harbour 0", in: window)
            let selected = window.articleList.selectedID

            gtk_editable_set_text(window.searchEntry.opaquePointer, "tid")
            try await self.until { window.articleList.query.searchText == "tid" }
            XCTAssertEqual(window.articleList.count, window.articleList.firstScreenRows)
            // Rows enough to fill the list's height, and not the 40 of a list with no height yet.
            XCTAssertGreaterThanOrEqual(window.articleList.count * ArticleRow.height, window.articleList.listView.widget.height)
            XCTAssertLessThan(window.articleList.count, ArticleList.firstScreenRowsBeforeLayout)
            XCTAssertTrue(window.articleList.isAwaitingWholeList)
            XCTAssertNil(window.articleList.selectedID, "the first screen does not list it")
            XCTAssertEqual(window.session?.article.title, "Harbour 0", "still open: nothing told the window otherwise")
            let firstScreen = self.titles(window)
            XCTAssertEqual(firstScreen.first, "Harbour 149")

            try await self.until { !window.articleList.isAwaitingWholeList }
            XCTAssertEqual(window.articleList.count, 150)
            XCTAssertEqual(Array(self.titles(window).prefix(firstScreen.count)), firstScreen, "the rows shown stay first")
            XCTAssertEqual(window.articleList.selectedID, selected)
            XCTAssertEqual(window.session?.article.title, "Harbour 0")

            // A search whose first screen holds every match reads nothing more.
            gtk_editable_set_text(window.searchEntry.opaquePointer, "fields")
            try await self.until { window.articleList.query.searchText == "fields" }
            XCTAssertEqual(self.titles(window), ["Inland"])
            XCTAssertFalse(window.articleList.isAwaitingWholeList)
        }
    }
}
