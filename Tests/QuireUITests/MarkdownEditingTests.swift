import Testing

@testable import QuireUI

/// The Markdown editing aids as pure functions: what each returns is the one edit the editor
/// applies as a single undo step.
struct MarkdownEditingTests {
    typealias Edit = MarkdownEditing.Edit

    @Test func boldWrapsTheSelectionAndUnwrapsItFromInsideOrOutside() {
        // "a word here": "word" selected.
        #expect(MarkdownEditing.toggle("**", selected: "word", at: 2..<6, before: "a ", after: " h")
            == Edit(range: 2..<6, text: "**word**", selection: 4..<8))
        // "a **word** here": "word" selected, markers outside.
        #expect(MarkdownEditing.toggle("**", selected: "word", at: 4..<8, before: "**", after: "**")
            == Edit(range: 2..<10, text: "word", selection: 2..<6))
        // The markers selected with the word.
        #expect(MarkdownEditing.toggle("**", selected: "**word**", at: 2..<10, before: "a ", after: " h")
            == Edit(range: 2..<10, text: "word", selection: 2..<6))
        // Nothing selected: an empty pair, the cursor between.
        #expect(MarkdownEditing.toggle("`", selected: "", at: 3..<3, before: "a", after: "b")
            == Edit(range: 3..<3, text: "``", selection: 4..<4))
    }

    @Test func offsetsCountCharactersAsTheTextBufferDoes() {
        // "é" written as e + combining accent is two characters to GtkTextBuffer.
        let word = "e\u{301}te\u{301}"
        #expect(MarkdownEditing.toggle("_", selected: word, at: 0..<5, before: "", after: "")
            == Edit(range: 0..<5, text: "_\(word)_", selection: 1..<6))
    }

    @Test func linksAreMadeFromTheSelectionAndTakenBackToTheirText() {
        #expect(MarkdownEditing.link("https://example.org", selected: "the site", at: 5..<13)
            == Edit(range: 5..<13, text: "[the site](https://example.org)", selection: 36..<36))
        #expect(MarkdownEditing.link("https://example.org", selected: "", at: 0..<0).text == "[https://example.org](https://example.org)")
        #expect(MarkdownEditing.linkText(of: "[the site](https://example.org)") == "the site")
        #expect(MarkdownEditing.linkText(of: "the site") == nil)
        #expect(MarkdownEditing.linkText(of: "[a](b) and [c](d)") == nil)
    }

    @Test func headingsAreSetReplacedAndToggledOff() {
        #expect(MarkdownEditing.heading(2, line: "Tides", lineStart: 10, cursor: 13)
            == Edit(range: 10..<15, text: "## Tides", selection: 16..<16))
        #expect(MarkdownEditing.heading(1, line: "### Tides", lineStart: 0, cursor: 9)
            == Edit(range: 0..<9, text: "# Tides", selection: 7..<7))
        #expect(MarkdownEditing.heading(2, line: "## Tides", lineStart: 0, cursor: 8).text == "Tides")
        #expect(MarkdownEditing.heading(0, line: "#### Tides", lineStart: 0, cursor: 0).text == "Tides")
        // A hashtag is no heading.
        #expect(MarkdownEditing.heading(1, line: "#tides", lineStart: 0, cursor: 0).text == "# #tides")
    }

    @Test func returnContinuesBulletsTasksQuotesAndNumbers() {
        #expect(MarkdownEditing.newLine(lines: ["- one"], lineStart: 0, column: 5)
            == Edit(range: 0..<5, text: "- one\n- ", selection: 8..<8))
        #expect(MarkdownEditing.newLine(lines: ["  * [x] done"], lineStart: 0, column: 12)?.text == "  * [x] done\n  * [ ] ")
        #expect(MarkdownEditing.newLine(lines: ["> > quoted"], lineStart: 0, column: 10)?.text == "> > quoted\n> > ")
        #expect(MarkdownEditing.newLine(lines: ["9. nine"], lineStart: 0, column: 7)?.text == "9. nine\n10. ")
        // In the middle of an item, the rest moves to the new one.
        #expect(MarkdownEditing.newLine(lines: ["- one two"], lineStart: 0, column: 5)?.text == "- one\n-  two")
        // Before the marker's end, or on an ordinary line: an ordinary new line.
        #expect(MarkdownEditing.newLine(lines: ["- one"], lineStart: 0, column: 1) == nil)
        #expect(MarkdownEditing.newLine(lines: ["plain text"], lineStart: 0, column: 10) == nil)
        #expect(MarkdownEditing.newLine(lines: ["-not a list"], lineStart: 0, column: 11) == nil)
    }

    @Test func returnOnAnEmptyItemEndsTheList() {
        #expect(MarkdownEditing.newLine(lines: ["- "], lineStart: 7, column: 2) == Edit(range: 7..<9, text: "", selection: 7..<7))
        #expect(MarkdownEditing.newLine(lines: ["3. [ ] "], lineStart: 0, column: 7)?.text == "")
        #expect(MarkdownEditing.newLine(lines: ["> "], lineStart: 0, column: 2)?.text == "")
    }

    @Test func aNewNumberedItemRenumbersTheItemsBelow() {
        let lines = ["1. one", "2. two", "   more of two", "3. three", "", "1. another list"]
        let edit = MarkdownEditing.newLine(lines: lines, lineStart: 0, column: 6)
        #expect(edit?.text == "1. one\n2. \n3. two\n   more of two\n4. three")
        #expect(edit?.range == 0..<(6 + 1 + 6 + 1 + 14 + 1 + 8))
        #expect(edit?.selection == 10..<10)
    }

    @Test func tabNestsAnItemUnderTheOneAboveAndShiftTabTakesItOut() {
        let above = ["- one"]
        #expect(MarkdownEditing.indent(line: "- two", lineStart: 6, cursor: 11, outwards: false, previousLines: above)
            == Edit(range: 6..<6, text: "  ", selection: 13..<13))
        #expect(MarkdownEditing.indent(line: "1. two", lineStart: 0, cursor: 6, outwards: false, previousLines: ["1. one"])?.text == "   ")
        #expect(MarkdownEditing.indent(line: "  - two", lineStart: 6, cursor: 13, outwards: true, previousLines: above)
            == Edit(range: 6..<8, text: "", selection: 11..<11))
        // The first item has nothing to nest under; a paragraph is no item.
        #expect(MarkdownEditing.indent(line: "- one", lineStart: 0, cursor: 5, outwards: false, previousLines: []) == nil)
        #expect(MarkdownEditing.indent(line: "text", lineStart: 0, cursor: 4, outwards: false, previousLines: above) == nil)
    }
}
