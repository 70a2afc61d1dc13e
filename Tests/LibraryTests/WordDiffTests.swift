import Testing
@testable import Library

/// Word-level differences inside changed lines, on top of the line diff.
@Suite struct WordDiffTests {
    /// The changed text of each change, old and new.
    private func changed(_ old: String, _ new: String) -> [(String, String)] {
        let diff = WordDiff(from: old, to: new)
        let oldScalars = Array(old.unicodeScalars)
        let newScalars = Array(new.unicodeScalars)
        return diff.changes.map { change in
            (String(String.UnicodeScalarView(oldScalars[change.old])), String(String.UnicodeScalarView(newScalars[change.new])))
        }
    }

    @Test func oneChangedWordIsOneChange() {
        let diff = WordDiff(from: "rewritten on the desktop\n", to: "rewritten on the laptop\n")
        #expect(diff.lines.hunks.count == 1)
        #expect(diff.changes == [WordDiff.Change(old: 17..<24, new: 17..<23, hunk: 0)])
        #expect(changed("rewritten on the desktop\n", "rewritten on the laptop\n").map { [$0.0, $0.1] } == [["desktop", "laptop"]])
    }

    @Test func changesInSeveralLinesAndWords() {
        let old = "Title line\nkeep this\nthe quick brown fox\nend\n"
        let new = "Title line\nkeep this\nthe slow brown dog\nend\nadded line\n"
        #expect(changed(old, new).map { [$0.0, $0.1] } == [["quick", "slow"], ["fox", "dog"], ["", "added line\n"]])
        let diff = WordDiff(from: old, to: new)
        #expect(diff.changes.map(\.hunk) == [0, 0, 1])
    }

    @Test func offsetsCountUnicodeScalarsAsGTKCountsCharacters() {
        // "é" decomposed is two scalars; the emoji with a skin tone is two as well.
        let old = "Cafe\u{301} 👩🏽 old\n"
        let new = "Cafe\u{301} 👩🏽 new\n"
        let diff = WordDiff(from: old, to: new)
        #expect(diff.changes.map(\.old) == [9..<12])
        #expect(changed(old, new).map { [$0.0, $0.1] } == [["old", "new"]])
    }

    @Test func punctuationAndSpacesAreWordsOfTheirOwn() {
        #expect(changed("Hello, world.\n", "Hello; world!\n").map { [$0.0, $0.1] } == [[",", ";"], [".", "!"]])
        #expect(changed("a  b\n", "a b\n").map { [$0.0, $0.1] } == [["  ", " "]])
        #expect(WordDiff.words(in: "don't 42x\tgo") == ["don", "'", "t", " ", "42x", "\t", "go"])
    }

    @Test func insertedAndDeletedLinesAreWholeLineChanges() {
        #expect(changed("a\nb\n", "a\n").map { [$0.0, $0.1] } == [["b\n", ""]])
        #expect(changed("", "new\n").map { [$0.0, $0.1] } == [["", "new\n"]])
        #expect(WordDiff(from: "same\n", to: "same\n").changes.isEmpty)
    }

    @Test func aWordDiffPastTheCostLimitMarksTheWholeLines() {
        let old = (0..<50).map { "o\($0)" }.joined(separator: " ") + "\n"
        let new = (0..<50).map { "n\($0)" }.joined(separator: " ") + "\n"
        let diff = WordDiff(from: old, to: new, costLimit: 10)
        #expect(diff.changes == [WordDiff.Change(old: 0..<old.unicodeScalars.count, new: 0..<new.unicodeScalars.count, hunk: 0)])
    }
}
