import Foundation
import Platform
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

    /// The excerpt reads a long paragraph only as far as it takes words from it (see
    /// `ExcerptBuilder.append`): what it takes is the same as splitting the whole text would give.
    @Test func excerptTakesTheFirstWordsOfALongParagraphAfterAShortOne() {
        let body = "Short \t first\u{00A0}block.\n\n"
            + String(repeating: "A sentence of an ordinary draft, autosaved.\n", count: 24)
        #expect(ArticleText.excerpt(of: body) == "Short first block. A sentence of an ordinary draft, autosaved. "
            + "A sentence of an ordinary draft, autosaved. A sentence of an ordinary draft, autosaved. "
            + "A sentence of an ordinary…")
    }

    @Test func wordsAreCountedAsWritersCountThem() {
        #expect(ArticleText.wordCount(of: "Hello, world!") == 2)
        #expect(ArticleText.wordCount(of: "don't stop well-known 3.14") == 4)
        #expect(ArticleText.wordCount(of: "# Title\n\n- one *two*\n\n[three](https://a.b/c/d)") == 4)
        #expect(ArticleText.wordCount(of: "```swift\nlet x = 1\n```") == 3, "code counts")
        #expect(ArticleText.wordCount(of: "数据库迁移 and ひらがな") == 5 + 1 + 4)
        #expect(ArticleText.wordCount(of: "café naïve cafe\u{301}") == 3)
        #expect(ArticleText.wordCount(of: "— * _ ---") == 0)
        // The ASCII scalars on either side of the letters and digits end a word.
        #expect(ArticleText.wordCount(of: "A/Z a:z 0@9 z{a}") == 8)
    }

    /// The text a reader sees, as cmark-gfm parses it, where a line-by-line reading goes wrong.
    @Test func markupAsCommonMarkReadsIt() {
        // Table cells are words, the delimiter row and pipes are not; an escaped pipe is text.
        let table = "| Name | Notes |\n|:-----|------:|\n| `a\\|b` | **bold** cell |\n"
        #expect(ArticleText.wordCount(of: table) == 2 + 2 + 2)
        #expect(ArticleText.excerpt(of: table) == "Name Notes a|b bold cell")
        // A reference link's definition, a link's title and an image's target are not text.
        let links = "See [the docs][ref] and [this](https://x.org/a-b \"A title\") ![a cat](cat.png).\n\n[ref]: https://example.com/very/long \"Ref title\"\n"
        #expect(ArticleText.wordCount(of: links) == 7)
        #expect(ArticleText.excerpt(of: links) == "See the docs and this a cat.")
        // An underscore that opens no emphasis is text, and between letters it joins one word.
        #expect(ArticleText.wordCount(of: "call snake_case_name now") == 3)
        #expect(ArticleText.excerpt(of: "call snake_case_name now") == "call snake_case_name now")
        #expect(ArticleText.excerpt(of: "**bold**ly *and* ~~never~~ more") == "boldly and never more")
        // Raw HTML is never rendered, so it is not text; the text around an inline tag is.
        #expect(ArticleText.wordCount(of: "<div>\nhidden block\n</div>\n\nSeen <b>bold</b> words\n") == 3)
        // An indented code block and a fence with tildes count, and are not excerpted.
        let code = "Intro.\n\n    let indented = 1\n\n~~~\nfenced words\n~~~\n"
        #expect(ArticleText.wordCount(of: code) == 1 + 3 + 2)
        #expect(ArticleText.excerpt(of: code) == "Intro.")
        // A `#` inside a fence is no heading, and a setext heading is one.
        #expect(ArticleText.excerpt(of: "```\n# not a heading\n```\nSetext\n======\n") == "Setext")
    }

    @Test func frontMatterIsNotText() {
        let article = "---\ntitle: \"Trip notes\"\ntags: [travel, lisbon]\n---\n# Lisbon\n\nTrams climb the hills.\n"
        #expect(ArticleText.wordCount(of: article) == 1 + 4)
        #expect(ArticleText.excerpt(of: article) == "Trams climb the hills.")
        // A rule that opens an article and a second one below are Markdown, not front matter.
        let ruled = "---\n\nJust prose, not a mapping.\n\n---\n\nMore.\n"
        #expect(ArticleText.wordCount(of: ruled) == 6)
        #expect(ArticleText.excerpt(of: ruled) == "Just prose, not a mapping. More.")
    }

    @Test func cjkTextIsCountedByCharacterAndExcerptedWhole() {
        let body = "# 東京\n\n今日は**晴れ**です。[リンク](https://example.jp)と`コード`。\n\n| 列 | 値 |\n|---|---|\n| 一 | 二 |\n"
        // 東京 2; 今日は晴れです 7; リンク 3; と 1; コード 3; 列 値 一 二 4.
        #expect(ArticleText.wordCount(of: body) == 2 + 7 + 3 + 1 + 3 + 4)
        #expect(ArticleText.excerpt(of: body) == "今日は晴れです。リンクとコード。 列 値 一 二")
        let long = String(repeating: "漢", count: 400)
        #expect(ArticleText.excerpt(of: long) == String(repeating: "漢", count: ArticleText.excerptLength - 1) + "…")
        #expect(ArticleText.wordCount(of: long) == 400)
    }

    /// Long bodies' summaries are remembered (the editor's count and the autosave read the same
    /// text): a body of the same length that differs in one byte is read again.
    @Test func aLongBodyThatDiffersInOneByteIsReadAgain() {
        let rest = String(repeating: " the tide came in", count: 4000)
        let first = "Alpha" + rest
        let second = "Alpho" + rest + "s"
        let third = "Alpha" + rest + "s"
        #expect(first.utf8.count > 32_768 && second.utf8.count == third.utf8.count)
        #expect(ArticleText.summary(of: first).wordCount == 1 + 16_000)
        #expect(ArticleText.summary(of: second).excerpt.hasPrefix("Alpho the tide"))
        #expect(ArticleText.summary(of: third).excerpt.hasPrefix("Alpha the tide"))
        #expect(ArticleText.summary(of: second).wordCount == 1 + 16_000)
    }

    @Test func titlesSortIgnoringCaseAndAccents() {
        #expect(ArticleText.sortKey("  École du Nord") == "ecole du nord")
        #expect(ArticleText.sortKey("ZEBRA") < ArticleText.sortKey("zoo"))
        #expect(ArticleText.sortKey("apple") < ArticleText.sortKey("Banana"))
    }

    /// ASCII titles are keyed by byte (``ArticleText/sortKey(_:)``): the key is Foundation's
    /// trimming and folding, for every ASCII character and for random titles, ASCII or not.
    @Test func aTitlesKeyIsFoundationsTrimmingAndFolding() {
        func folded(_ title: String) -> String {
            title.trimmingCharacters(in: .whitespacesAndNewlines)
                .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        for value in UInt8(0)..<0x80 {
            let character = String(UnicodeScalar(value))
            for title in [character, "A\(character)b", "\(character) x \(character)"] {
                #expect(ArticleText.sortKey(title) == folded(title), "\(title.debugDescription)")
            }
        }
        var random = SeededGenerator(seed: 35)
        let pieces = [" ", "\t", "\n", "\r\n", "\u{0B}", "\u{85}", "\u{A0}", "\u{3000}", "A", "z", "Q", "é", "É", "e\u{301}", "ß", "İ", "ﬁ", "1", "-", "漢"]
        for _ in 0..<5_000 {
            let asciiOnly = random.chance(0.5)
            var title = ""
            for _ in 0..<Int.random(in: 0...10, using: &random) {
                title += asciiOnly ? String(UnicodeScalar(UInt8.random(in: 0..<0x80, using: &random))) : random.pick(pieces)
            }
            #expect(ArticleText.sortKey(title) == folded(title), "\(title.debugDescription)")
        }
    }
}
