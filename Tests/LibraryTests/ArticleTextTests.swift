import Testing
@testable import Library

/// The list's excerpt, word count and title sort key, derived from Markdown.
@Suite struct ArticleTextTests {
    @Test func excerptSkipsMarkupAndPrefersProse() {
        let body = """
            # A heading

            > Quoted **strong** and _em_ text with `code` and ~~gone~~.

            - [x] done item
            1. [a link](https://example.com/long/url) and ![an image](pic.png)
            <span>html</span> <https://example.org>

            | a | b |
            |---|---|
            """
        #expect(ArticleText.excerpt(of: body)
            == "Quoted strong and em text with code and gone. done item a link and an image html https://example.org a b")
        #expect(ArticleText.excerpt(of: "# Only a heading\n\n## And another\n") == "Only a heading And another")
        #expect(ArticleText.excerpt(of: "```\ncode only\n```\n") == "")
        #expect(ArticleText.excerpt(of: "") == "")
    }

    @Test func excerptIsCutAtAWord() {
        let body = String(repeating: "word ", count: 100)
        let excerpt = ArticleText.excerpt(of: body)
        #expect(excerpt.count <= ArticleText.excerptLength + 1)
        #expect(excerpt.hasSuffix("word…"))
        let single = ArticleText.excerpt(of: String(repeating: "x", count: 500))
        #expect(single.count == ArticleText.excerptLength)
    }

    @Test func wordsAreCountedAsWritersCountThem() {
        #expect(ArticleText.wordCount(of: "Hello, world!") == 2)
        #expect(ArticleText.wordCount(of: "don't stop well-known 3.14") == 4)
        #expect(ArticleText.wordCount(of: "# Title\n\n- one *two*\n\n[three](https://a.b/c/d)") == 4)
        #expect(ArticleText.wordCount(of: "```swift\nlet x = 1\n```") == 3, "code counts")
        #expect(ArticleText.wordCount(of: "数据库迁移 and ひらがな") == 5 + 1 + 4)
        #expect(ArticleText.wordCount(of: "café naïve cafe\u{301}") == 3)
        #expect(ArticleText.wordCount(of: "— * _ ---") == 0)
    }

    @Test func titlesSortIgnoringCaseAndAccents() {
        #expect(ArticleText.sortKey("  École du Nord") == "ecole du nord")
        #expect(ArticleText.sortKey("ZEBRA") < ArticleText.sortKey("zoo"))
        #expect(ArticleText.sortKey("apple") < ArticleText.sortKey("Banana"))
    }
}
