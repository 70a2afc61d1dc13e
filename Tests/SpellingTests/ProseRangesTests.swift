import Spelling
import Testing

/// Which parts of Markdown are checked: the text of each prose range, joined.
@Suite struct ProseRangesTests {
    private func prose(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        return ProseRanges.ranges(in: text).map { range in
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }.joined(separator: "|")
    }

    @Test func headingsListsEmphasisAndLinkTextsAreProse() {
        #expect(prose("# Heading words\n- item one\n1. item two\n*emphasis* and **strong**\n") ==
            "# Heading words|- item one|1. item two|*emphasis* and **strong**")
        #expect(prose("See [the link text](https://example.org/path (title)) here.") == "See [the link text]| here.")
    }

    /// A link text that is the name of the file its target ends with (an attachment reference as
    /// the editor inserts it, escapes and percent-encoding read) is a file name, not prose; any
    /// other link text is still prose.
    @Test func aLinkTextThatIsItsFileNameIsNot() {
        let digest = String(repeating: "0a", count: 32)
        #expect(prose("See ![gull.png](attachment:\(digest)/gull.png) here.") == "See !| here.")
        #expect(prose("[notes 2 \\[draft\\].txt](attachment:\(digest)/notes%202%20%5Bdraft%5D.txt) and [old.pdf](files/old.pdf \"Old\")")
            == " and ")
        #expect(prose("A [photo of the gull](attachment:\(digest)/gull.png).") == "A [photo of the gull]|.")
        #expect(prose("Both [a.png](x/b.png) and [](x/) stay.") == "Both [a.png]| and []| stay.")
    }

    @Test func codeSpansAndBlocksAreNot() {
        #expect(prose("Use `lettt x = 1` or ``a ` b`` now.") == "Use | or | now.")
        #expect(prose("Before\n```swift\nlet wrng = 1\n```\nAfter") == "Before|After")
        #expect(prose("Before\n~~~~\ncode\n~~~\nstill code\n~~~~\nAfter") == "Before|After")
        #expect(prose("Para\n\n    indented codde\n    more\n\nText") == "Para|Text")
        #expect(prose("- item\n\n    continued item text\n") == "- item|    continued item text")
        #expect(prose("An `unclosed span") == "An `unclosed span")
    }

    @Test func urlsTagsAndAddressesAreNot() {
        #expect(prose("Visit https://exmaple.org/tpyo, or www.qwrt.com now") == "Visit | or | now")
        #expect(prose("An <span class=\"x\">inline</span> tag <!-- a cmment -->") == "An |inline| tag ")
        #expect(prose("Mail <https://auto.link> or writer@exmaple.org please") == "Mail | or | please")
        #expect(prose("[label]: https://example.org \"Titel\"") == "[label]")
    }

    @Test func frontMatterIsNotButAThematicBreakIs() {
        #expect(prose("---\ntitle: Tpyo\nlang: en\n---\nBody text\n") == "Body text")
        #expect(prose("---\nno closing fence, so prose\n") == "---|no closing fence, so prose")
        #expect(prose("Text\n\n---\n\nMore") == "Text|---|More")
    }

    @Test func offsetsCountUnicodeScalars() {
        let text = "Café 🎉 `cde` wörd"
        let ranges = ProseRanges.ranges(in: text)
        #expect(ranges == [0..<7, 12..<17])
    }

    /// The scan of the lines around an edit finds exactly the prose the whole scan finds there,
    /// with the blocks opened far above (front matter, a fence, an indented block in a list)
    /// still known, for every line range of a text that has them all.
    @Test func theLinesOfAnEditHaveTheProseTheWholeScanGivesThem() {
        let text = Array("""
            ---
            title: Tpyo
            ---
            # Heading wrds
            Text with `cde` and https://exmaple.org here.

            ```swift
            let wrng = 1

            still code
            ```
            - item

                continued item text
            Para

                indented codde
            After <b>tag</b> text
            ~~~
            fenced
            ~~~
            Last line
            """.unicodeScalars)
        let whole = ProseRanges.ranges(in: text)
        for start in 0...text.count {
            for end in start...min(text.count, start + 40) {
                let lines = start..<end
                let expected = whole.filter { !($0.upperBound < lines.lowerBound || $0.lowerBound > lines.upperBound) }
                let found = ProseRanges.ranges(in: text, lines: lines)
                    .filter { !($0.upperBound < lines.lowerBound || $0.lowerBound > lines.upperBound) }
                #expect(found == expected, "lines \(lines)")
                if found != expected { return }
            }
        }
    }
}
