import Foundation
import Library
import XCTest

@testable import QuireUI

/// The editor's costly set-up stays out of the start and out of the first article's open: the
/// Markdown language (GtkSourceView parses and validates markdown.lang, about 90 ms) is parsed
/// once the first rows are drawn, when the window is idle, and the spelling dictionary is opened
/// by the first article's check, off the main thread. Both made every start about 110 ms longer
/// before its first rows when the editor was made with them; parsed as the first article loaded,
/// the language made that open take about 110 ms against 15 for the next ones.
final class EditorStartTests: MainWindowTestCase, @unchecked Sendable {
    func testTheLanguageIsParsedAfterTheFirstRowsAndTheFirstArticleIsHighlightedAndSpellChecked() throws {
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Letter", body: "The writer will recieve it.\n", language: "en_US"))
        }
        // Wide enough for sidebar, list and editor side by side: the list is shown from the
        // window's first frame and makes its rows for the next.
        drive(url, windowSize: (1400, 900)) { window in
            let editor = window.editor
            // Read as the list's first rows are drawn: the parse must not hold them back.
            var languageAsRowsWereShown: String?? = .none
            window.articleList.listView.whenRowsShown { languageAsRowsWereShown = .some(editor.buffer.languageID) }
            try await self.until { languageAsRowsWereShown != nil }
            XCTAssertEqual(languageAsRowsWereShown, .some(nil), "no language parsed before the first rows are drawn")
            try await self.until { editor.buffer.languageID == "markdown" }
            XCTAssertNil(window.session, "parsed before an article opens")
            XCTAssertFalse(editor.spelling.hasOpenedDictionary, "no dictionary opened before an article opens")

            try self.open("Letter", in: window)
            XCTAssertEqual(editor.buffer.languageID, "markdown", "highlighted as it is shown")
            try await self.until {
                !editor.spelling.isPending && editor.spelling.underlinedRanges.map { editor.buffer.text(in: $0) } == ["recieve"]
            }
            XCTAssertTrue(editor.spelling.hasOpenedDictionary)
            // The context menu lists the languages once the dictionary is open, right-click or not.
            XCTAssertTrue(editor.spelling.menu.items.contains { $0.action == "editor.spelling-language" && $0.target == "en_US" })
        }
    }

    /// A window that shows no list (here the empty library's page) parses the language once its
    /// first frame is drawn.
    func testAnEmptyLibrarysWindowParsesTheLanguageBeforeTheFirstArticle() throws {
        let url = try makeLibrary { _ in }
        drive(url) { window in
            var languageAtFirstFrame: String?? = .none
            window.window.afterNextFrame { languageAtFirstFrame = .some(window.editor.buffer.languageID) }
            try await self.until { window.editor.buffer.languageID == "markdown" }
            XCTAssertEqual(languageAtFirstFrame, .some(nil), "no language parsed before the first frame")
            XCTAssertNil(window.session)
            XCTAssertEqual(window.articleList.count, 0)
        }
    }
}
