import Foundation
import Library
import XCTest

@testable import QuireUI

/// The pure parts of issue 17's widgets: what the tag entry offers and adds, what a list row says
/// of an article's status and tags, how History words a version's size change.
final class TagCompletionTests: XCTestCase {
    func testTheEntryOffersTheLibrarysTagsByTheirStartIgnoringCaseAndAccents() {
        let completion = TagCompletion(known: ["café", "essay", "Essen", "short"], carried: ["short"])
        XCTAssertEqual(completion.suggestions(for: "ES"), ["essay", "Essen"])
        XCTAssertEqual(completion.suggestions(for: "  cafe"), ["café"])
        XCTAssertEqual(completion.suggestions(for: "sh"), [], "a tag the article carries is not offered")
        XCTAssertEqual(completion.suggestions(for: " "), [])
    }

    func testReturnAddsTheLibrarysSpellingANewNameOrNothing() {
        let completion = TagCompletion(known: ["Long Reads", "short"], carried: ["short"])
        XCTAssertEqual(completion.tagToAdd(for: "long reads "), "Long Reads")
        XCTAssertEqual(completion.tagToAdd(for: "harbour"), "harbour")
        XCTAssertNil(completion.tagToAdd(for: "SHORT"), "carried already")
        XCTAssertNil(completion.tagToAdd(for: "  "))
    }

    func testARowSaysTheStatusAndTagsOnlyWhenSet() {
        XCTAssertEqual(ArticleRow.detailsText(status: .draft, tags: []), "")
        XCTAssertEqual(ArticleRow.detailsText(status: .draft, tags: ["essay", "short"]), "essay, short")
        XCTAssertEqual(ArticleRow.detailsText(status: .ready, tags: []), "Ready")
        XCTAssertEqual(ArticleRow.detailsText(status: .published, tags: ["essay"]), "Published · essay")
    }

    func testHistorySaysHowManyWordsAVersionAddedOrRemoved() {
        func version(_ words: Int) -> ArticleVersionSummary {
            try! JSONDecoder().decode(ArticleVersionSummary.self, from: JSONSerialization.data(withJSONObject: [
                "id": UUID().uuidString, "articleID": UUID().uuidString, "recorded": 0, "source": "edited", "title": "T",
                "size": words * 6, "wordCount": words,
            ]))
        }
        XCTAssertEqual(HistoryPanel.wordChange(version(120), older: nil), "120 words")
        XCTAssertEqual(HistoryPanel.wordChange(version(132), older: version(120)), "+12 words")
        XCTAssertEqual(HistoryPanel.wordChange(version(119), older: version(120)), "−1 word")
        XCTAssertEqual(HistoryPanel.wordChange(version(120), older: version(120)), "same length")
    }
}
