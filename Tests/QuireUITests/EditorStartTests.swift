import Foundation
import Library
import XCTest

@testable import QuireUI

/// The editor's costly set-up waits for the first article: a window that starts with none open
/// has not parsed the Markdown language nor opened a spelling dictionary (they made every start
/// about 110 ms longer before its first rows), and the first article opened is highlighted and
/// spell-checked as every later one.
final class EditorStartTests: MainWindowTestCase, @unchecked Sendable {
    func testTheFirstArticleOpenedIsHighlightedAndSpellCheckedAndNothingBeforeIt() throws {
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Letter", body: "The writer will recieve it.\n", language: "en_US"))
        }
        drive(url) { window in
            try await self.until { window.articleList.count == 1 }
            let editor = window.editor
            XCTAssertNil(window.session, "the window starts with no article open")
            XCTAssertNil(editor.buffer.languageID, "no language parsed before an article opens")
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
}
