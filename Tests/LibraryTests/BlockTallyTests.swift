import Platform
import Testing
@testable import Library

/// A long body's excerpt and word count kept by block (``BlockTally``) against the one
/// definition, the whole text read through cmark at once (``ArticleText/read(_:)``).
@Suite struct BlockTallyTests {
    /// Random Markdown with every construct that reaches across a blank line (fences, HTML blocks,
    /// front matter, list items and their indented paragraphs, reference definitions), edited at
    /// random places with pieces of those constructs: after every edit the tally kept from the
    /// texts before equals a count of the whole text. Replay a failure from the seed it names.
    @Test(arguments: 0..<40)
    func aTallyKeptThroughRandomEditsEqualsACountOfTheWholeText(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var text = Self.document(using: &random)
        let tally = BlockTally()
        for step in 0..<25 {
            let whole = ArticleText.read(text)
            let kept = tally.summary(of: text)
            #expect(kept.wordCount == whole.wordCount, "seed \(seed), step \(step): \(text.debugDescription)")
            #expect(kept.excerpt == whole.excerpt, "seed \(seed), step \(step): \(text.debugDescription)")
            text = Self.edit(text, using: &random)
        }
    }

    @Test func anEditReadsOnlyTheRunItChanged() {
        let paragraphs = (0..<200).map { "Paragraph \($0) with *a few* words in it.\n" }
        let text = paragraphs.joined(separator: "\n")
        let runs = BlockTally.runs(of: text)
        #expect(runs.count == 200)
        #expect(runs.joined() == text)
        var edited = paragraphs
        edited[100] = "Paragraph 100 with *a few* more words in it.\n"
        let changed = Set(BlockTally.runs(of: edited.joined(separator: "\n"))).subtracting(runs)
        #expect(changed.count == 1)
    }

    /// A book-length body's summary, as the list and the autosave read it, is the tally's and
    /// equals reading it whole.
    @Test func aLongBodysSummaryIsReadByBlockAndEqualsTheWholeReading() {
        var random = SeededGenerator(seed: 7)
        var body = "# A book\n\n## Chapter one\n\n"
        while body.utf8.count < BlockTally.minimumBytes * 3 { body += Self.document(using: &random) + "\n\n" }
        #expect(ArticleText.summary(of: body) == ArticleText.read(body))
        body.insert(contentsOf: "\n\nA paragraph written in the middle.\n\n", at: body.index(body.startIndex, offsetBy: body.count / 2))
        #expect(ArticleText.summary(of: body) == ArticleText.read(body))
    }

    @Test func blocksThatHoldBlankLinesAreOneRun() {
        let fence = "Before.\n\n```\nOne\n\nTwo *not* emphasis\n```\n\nAfter.\n"
        #expect(BlockTally.runs(of: fence) == ["Before.\n\n", "```\nOne\n\nTwo *not* emphasis\n```\n\n", "After.\n"])
        let comment = "<!-- a\n\nb -->\n\nText.\n"
        #expect(BlockTally.runs(of: comment) == ["<!-- a\n\nb -->\n\n", "Text.\n"])
        let frontMatter = "---\ntitle: A\n\nnote: b\n---\n\nText.\n"
        #expect(BlockTally.runs(of: frontMatter) == ["---\ntitle: A\n\nnote: b\n---\n\n", "Text.\n"])
        let listItem = "- item\n\n  more of the item\n\nText.\n"
        #expect(BlockTally.runs(of: listItem) == ["- item\n\n  more of the item\n\n", "Text.\n"])
        let reference = "A [link][x].\n\n[x]: https://example.org\n"
        #expect(BlockTally.runs(of: reference) == [reference[...]])
    }

    // MARK: Random Markdown

    private static let blocks = [
        "A paragraph with *emphasis*, `code` and a [link](https://example.org/a-b).",
        "# A heading\n", "Setext\n===", "- one\n- two\n\n  indented part of two", "1. first\n2. second",
        "> quoted\n> text", "```\ncode\n\nmore code [x](y)\n```", "~~~ swift\nlet a = 1\n\n~~~", "    indented code\n\n    more",
        "<!-- a comment\n\nover lines -->", "<div>\nhtml\n</div>", "<script>\nvar a\n\nb()\n</script>",
        "| a | b |\n|---|---|\n| c | d |", "---", "Text[^1] with a note.", "[^1]: The note.", "[ref]: https://example.org",
        "A [ref][ref] link.", "don't well-known 3.14 東京", "- [ ] task\n- [x] done", "  ```\n  in a list?\n\n```",
        "Line one\r\nline two\r\n",
    ]
    private static let pieces = ["\n", "\n\n", "```", "~~~", "<!--", "-->", "- ", "    ", "  ", "word ", "---\n", "*", "[", "]:",
                                 "<pre>", "</pre>", "\t", "> ", "é", "\r\n"]

    private static func document(using random: inout SeededGenerator) -> String {
        var parts: [String] = []
        if Bool.random(using: &random) { parts.append("---\ntitle: \"A\"\ntags: [a, b]\n---\n") }
        for _ in 0..<Int.random(in: 3...14, using: &random) { parts.append(blocks.randomElement(using: &random)!) }
        return parts.joined(separator: Bool.random(using: &random) ? "\n\n" : "\n")
    }

    private static func edit(_ text: String, using random: inout SeededGenerator) -> String {
        var scalars = Array(text.unicodeScalars)
        let position = Int.random(in: 0...scalars.count, using: &random)
        if Int.random(in: 0..<3, using: &random) == 0, position < scalars.count {
            scalars.removeSubrange(position..<min(scalars.count, position + Int.random(in: 1...12, using: &random)))
        } else {
            let insertion = Bool.random(using: &random) ? pieces.randomElement(using: &random)! : blocks.randomElement(using: &random)!
            scalars.insert(contentsOf: insertion.unicodeScalars, at: position)
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
