import Testing
@testable import Library
import Platform

@Suite struct TextMergeTests {
    private func merge(_ base: String, _ mine: String, _ theirs: String, costLimit: Int = LineDiff.defaultCostLimit) -> TextMerge {
        TextMerge.merge(base: base, mine: mine, theirs: theirs, costLimit: costLimit)
    }

    @Test func editsApartMergeCleanly() {
        let base = "one\ntwo\nthree\nfour\nfive\n"
        let result = merge(base, "ONE\ntwo\nthree\nfour\nfive\n", "one\ntwo\nthree\nfour\nFIVE\n")
        #expect(result.mergedText == "ONE\ntwo\nthree\nfour\nFIVE\n")
    }

    @Test func oneUnchangedLineSeparatesEdits() {
        let result = merge("a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n")
        #expect(result.mergedText == "A\nb\nC\n")
    }

    @Test func onlyOneSideChanged() {
        #expect(merge("a\nb\n", "a\nb\nc\n", "a\nb\n").mergedText == "a\nb\nc\n")
        #expect(merge("a\nb\n", "a\nb\n", "x\n").mergedText == "x\n")
        #expect(merge("", "", "new\n").mergedText == "new\n")
        #expect(merge("same\n", "same\n", "same\n").mergedText == "same\n")
        #expect(!merge("same\n", "same\n", "same\n").hasChanges)
    }

    @Test func identicalChangesOnBothSidesAreTakenOnce() {
        let result = merge("a\nb\nc\n", "a\nB\nc\nd\n", "a\nB\nc\nd\n")
        #expect(result.mergedText == "a\nB\nc\nd\n")
        #expect(result.regions.contains(.changed("B\n", from: .both)))
    }

    @Test func deletionAndDistantEditMerge() {
        let result = merge("a\nb\nc\nd\ne\n", "a\nc\nd\ne\n", "a\nb\nc\nd\nE\n")
        #expect(result.mergedText == "a\nc\nd\nE\n")
    }

    @Test func overlappingEditsConflict() throws {
        let result = merge("a\nb\nc\n", "a\nmine\nc\n", "a\ntheirs\nc\n")
        #expect(result.mergedText == nil)
        let hunk = try #require(result.conflicts.first)
        #expect(result.conflicts.count == 1)
        #expect(hunk.base == "b\n")
        #expect(hunk.mine == "mine\n")
        #expect(hunk.theirs == "theirs\n")
        #expect(hunk.baseLines == 1..<2 && hunk.mineLines == 1..<2 && hunk.theirsLines == 1..<2)
        #expect(hunk.reason == .overlapping)
        #expect(result.resolved { _ in .theirs } == "a\ntheirs\nc\n")
        #expect(result.resolved { _ in .mineThenTheirs } == "a\nmine\ntheirs\nc\n")
        #expect(result.resolved { _ in .edited("both\n") } == "a\nboth\nc\n")
        #expect(result.resolved { _ in .base } == "a\nb\nc\n")
    }

    @Test func insertionsAtTheSamePlaceConflict() throws {
        let result = merge("a\nb\n", "a\nx\nb\n", "a\ny\nb\n")
        let hunk = try #require(result.conflicts.first)
        #expect(hunk.base.isEmpty && hunk.mine == "x\n" && hunk.theirs == "y\n")
        #expect(hunk.reason == .overlapping)
    }

    @Test func editsOnAdjacentLinesConflict() throws {
        let result = merge("a\nb\nc\nd\n", "a\nB\nc\nd\n", "a\nb\nC\nd\n")
        let hunk = try #require(result.conflicts.first)
        #expect(result.conflicts.count == 1)
        #expect(hunk.reason == .adjacent)
        #expect(hunk.base == "b\nc\n")
        #expect(hunk.mine == "B\nc\n")
        #expect(hunk.theirs == "b\nC\n")
    }

    @Test func insertionNextToAnEditConflicts() throws {
        let result = merge("a\nb\nc\n", "a\nb\nnew\nc\n", "a\nb\nC\n")
        #expect(try #require(result.conflicts.first).reason == .adjacent)
    }

    @Test func singleBlankLineBetweenParagraphsSeparatesEdits() {
        let base = "First paragraph.\n\nSecond paragraph.\n"
        let result = merge(base, "First paragraph, edited.\n\nSecond paragraph.\n", "First paragraph.\n\nSecond, theirs.\n")
        #expect(result.mergedText == "First paragraph, edited.\n\nSecond, theirs.\n")
    }

    @Test func runOfBlankLinesDoesNotSeparateEdits() throws {
        let base = "alpha\n\n\n\nomega\n"
        let result = merge(base, "ALPHA\n\n\n\nomega\n", "alpha\n\n\n\nOMEGA\n")
        let hunk = try #require(result.conflicts.first)
        #expect(result.conflicts.count == 1)
        #expect(hunk.reason == .ambiguousBase)
        #expect(hunk.base == base)
        // One side alone still merges through the run.
        #expect(merge(base, "ALPHA\n\n\n\nOMEGA\n", base).mergedText == "ALPHA\n\n\n\nOMEGA\n")
    }

    @Test func runOfRepeatedLinesDoesNotSeparateEdits() throws {
        let base = "start\n}\n}\n}\nend\n"
        let result = merge(base, "START\n}\n}\n}\nend\n", "start\n}\n}\n}\nEND\n")
        #expect(try #require(result.conflicts.first).reason == .ambiguousBase)
        // A distinct line inside the stretch makes it an anchor again.
        let anchored = merge("start\n}\nmiddle\n}\nend\n", "START\n}\nmiddle\n}\nend\n", "start\n}\nmiddle\n}\nEND\n")
        #expect(anchored.mergedText == "START\n}\nmiddle\n}\nEND\n")
    }

    @Test func editsInsideARepeatedRunConflict() {
        let base = "x\nx\nx\nx\n"
        let result = merge(base, "x\nmine\nx\nx\nx\n", "x\nx\nx\ntheirs\nx\n")
        #expect(!result.isClean)
    }

    @Test func crlfLineEndingsArePreserved() {
        let base = "one\r\ntwo\r\nthree\r\nfour\r\n"
        let result = merge(base, "ONE\r\ntwo\r\nthree\r\nfour\r\n", "one\r\ntwo\r\nthree\r\nFOUR\r\n")
        #expect(result.mergedText == "ONE\r\ntwo\r\nthree\r\nFOUR\r\n")
    }

    @Test func crlfConflictsJoinWithoutExtraLines() throws {
        let result = merge("a\r\nb\r\nc\r\n", "a\r\nmine\r\nc\r\n", "a\r\ntheirs\r\nc\r\n")
        #expect(result.resolved { _ in .mineThenTheirs } == "a\r\nmine\r\ntheirs\r\nc\r\n")
        let unterminated = merge("a\r\nb", "a\r\nmine", "a\r\ntheirs")
        #expect(unterminated.resolved { _ in .theirsThenMine } == "a\r\ntheirs\r\nmine")
    }

    @Test func changedLineEndingIsAnEdit() throws {
        let result = merge("a\nb\n", "a\r\nb\n", "A\nb\n")
        let hunk = try #require(result.conflicts.first)
        #expect(hunk.mine == "a\r\n" && hunk.theirs == "A\n")
    }

    @Test func missingFinalNewlineIsHandled() {
        #expect(merge("a\nb\nc", "A\nb\nc", "a\nb\nc\nd").mergedText == "A\nb\nc\nd")
        // Appending after an unterminated last line changes that line, so it touches an edit of the one before.
        #expect(!merge("a\nb", "A\nb", "a\nb\nc").isClean)
    }

    @Test func unicodeLinesMergeByExactBytes() throws {
        let base = "Grüße 👋🏽\nשלום עולם\n中文段落\nend\n"
        let result = merge(base, "Grüße 👋🏽!\nשלום עולם\n中文段落\nend\n", "Grüße 👋🏽\nשלום עולם\n中文段落，修改\nend\n")
        #expect(result.mergedText == "Grüße 👋🏽!\nשלום עולם\n中文段落，修改\nend\n")
        // Decomposed é is canonically equal to precomposed é in Swift, but is a different line here.
        let normalised = merge("caf\u{E9}\n", "cafe\u{301}\n", "caf\u{E9}\n")
        #expect(normalised.mergedText?.utf8.elementsEqual("cafe\u{301}\n".utf8) == true)
    }

    @Test func largeDivergentInputsHitTheCostLimitAndConflict() throws {
        let base = (0..<20_000).map { "line \($0)\n" }.joined()
        let mine = (0..<20_000).map { $0 % 3 == 0 ? "mine \($0)\n" : "line \($0)\n" }.joined()
        let theirs = (0..<20_000).map { $0 % 5 == 0 ? "theirs \($0)\n" : "line \($0)\n" }.joined()
        let result = merge(base, mine, theirs, costLimit: 200)
        let hunk = try #require(result.conflicts.first)
        #expect(hunk.reason == .diffTooLarge)
        #expect(result.conflicts.count == 1)
    }

    @Test func largeInputsWithinTheCostLimitMergeExactly() {
        let base = (0..<20_000).map { "line \($0)\n" }.joined()
        let mine = base.replacingOccurrences(of: "line 100\n", with: "mine 100\n")
        let theirs = base.replacingOccurrences(of: "line 19000\n", with: "theirs 19000\n")
        let expected = mine.replacingOccurrences(of: "line 19000\n", with: "theirs 19000\n")
        let result = merge(base, mine, theirs, costLimit: 200)
        #expect(result.mergedText == expected)
    }

    @Test func randomMergesKeepTheBasicLaws() {
        var generator = SeededGenerator(seed: 2024)
        let alphabet = ["a\n", "b\n", "c\n", "\n", "d\r\n", "é\n", "x"]
        func text() -> String {
            (0..<Int(generator.next() % 8)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
        }
        for _ in 0..<400 {
            let base = text()
            let mine = text()
            let theirs = text()
            // One side unchanged: the other side wins, whole.
            #expect(merge(base, base, theirs).mergedText == theirs)
            #expect(merge(base, mine, base).mergedText == mine)
            #expect(merge(base, mine, mine).mergedText == mine)
            // Swapping the sides swaps the choices.
            let forward = merge(base, mine, theirs)
            let backward = merge(base, theirs, mine)
            #expect(forward.resolved { _ in .mine } == backward.resolved { _ in .theirs })
            #expect(forward.conflicts.count == backward.conflicts.count)
        }
    }

    @Test func lineDiffFindsAShortestScript() {
        let diff = LineDiff(from: "a\nb\nc\nd\n", to: "a\nx\nc\nd\ny\n")
        #expect(diff.hunks == [.init(old: 1..<2, new: 1..<2), .init(old: 4..<4, new: 4..<5)])
        #expect(!diff.exceededCostLimit)
        let capped = LineDiff(from: "a\nb\nc\n", to: "x\ny\nz\n", costLimit: 2)
        #expect(capped.exceededCostLimit)
        #expect(capped.hunks == [.init(old: 0..<3, new: 0..<3)])
    }

    @Test func lineDiffMatchesAReferenceOnRandomInputs() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            let old = (0..<Int(generator.next() % 12)).map { _ in Int(generator.next() % 4) }
            let new = (0..<Int(generator.next() % 12)).map { _ in Int(generator.next() % 4) }
            let diff = LineDiff(old: old, new: new, costLimit: 100)
            // Applying the hunks to old gives new, and the cost is minimal (n + m - 2·LCS).
            var rebuilt: [Int] = []
            var position = 0
            var cost = 0
            for hunk in diff.hunks {
                rebuilt += old[position..<hunk.old.lowerBound]
                rebuilt += new[hunk.new]
                position = hunk.old.upperBound
                cost += hunk.old.count + hunk.new.count
            }
            rebuilt += old[position...]
            #expect(rebuilt == new)
            #expect(cost == old.count + new.count - 2 * longestCommonSubsequence(old, new))
        }
    }

    private func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0..<a.count {
            for j in 0..<b.count {
                table[i + 1][j + 1] = a[i] == b[j] ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
            }
        }
        return table[a.count][b.count]
    }
}
