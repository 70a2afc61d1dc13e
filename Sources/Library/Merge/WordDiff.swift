/// The differences between two texts word by word inside changed lines: what the History panel
/// and the conflict dialog highlight, so that "rewritten on the desktop" against "rewritten on
/// the laptop" marks one word, not two whole lines.
///
///     let diff = WordDiff(from: "rewritten on the desktop\n", to: "rewritten on the laptop\n")
///     diff.lines.hunks     // [old 0..<1, new 0..<1]: the changed lines, as ``LineDiff`` gives them
///     diff.changes         // [old 17..<24, new 17..<23]: "desktop" → "laptop"
///
/// The lines are compared first (``LineDiff``); inside each hunk that replaced lines with lines,
/// the same diff compares words: runs of letters, digits and marks, runs of spaces, and every other
/// character alone. A hunk that only inserts or deletes lines is one change of whole lines, and so
/// is a hunk whose words differ by more than the cost limit. Offsets count Unicode scalars from
/// the start of each text, as GTK's text buffer counts characters. Pure.
public struct WordDiff: Sendable, Hashable {
    /// One changed run: `old` characters of the old text were replaced by `new` characters of the
    /// new text (either may be empty: an insertion or a deletion, which still says where).
    public struct Change: Sendable, Hashable {
        /// The replaced characters of the old text (Unicode scalar offsets).
        public var old: Range<Int>
        /// The characters of the new text that replace them.
        public var new: Range<Int>
        /// The position in ``WordDiff/lines``' hunks of the hunk this change is in.
        public var hunk: Int
    }

    /// The line-level differences the word-level ones sit in.
    public let lines: LineDiff
    /// The changes, in order.
    public let changes: [Change]

    /// Compares `old` with `new`, lines first, then words inside changed lines.
    public init(from old: String, to new: String, costLimit: Int = LineDiff.defaultCostLimit) {
        let oldLines = TextLines(old)
        let newLines = TextLines(new)
        lines = LineDiff(from: old, to: new, costLimit: costLimit)
        let oldStarts = Self.lineStarts(oldLines)
        let newStarts = Self.lineStarts(newLines)
        var changes: [Change] = []
        for (position, hunk) in lines.hunks.enumerated() {
            let oldOffset = oldStarts[hunk.old.lowerBound]
            let newOffset = newStarts[hunk.new.lowerBound]
            let wholeLines = Change(
                old: oldOffset..<oldStarts[hunk.old.upperBound], new: newOffset..<newStarts[hunk.new.upperBound], hunk: position)
            guard !hunk.old.isEmpty, !hunk.new.isEmpty else {
                changes.append(wholeLines)
                continue
            }
            let oldWords = Self.words(in: oldLines.text(hunk.old))
            let newWords = Self.words(in: newLines.text(hunk.new))
            var interner: [ExactLine: Int] = [:]
            let number = { (word: Substring) -> Int in
                let key = ExactLine(text: word)
                if let known = interner[key] { return known }
                interner[key] = interner.count
                return interner.count - 1
            }
            let wordDiff = LineDiff(old: oldWords.map(number), new: newWords.map(number), costLimit: costLimit)
            if wordDiff.exceededCostLimit {
                changes.append(wholeLines)
                continue
            }
            let oldWordStarts = Self.starts(of: oldWords, from: oldOffset)
            let newWordStarts = Self.starts(of: newWords, from: newOffset)
            for wordHunk in wordDiff.hunks {
                changes.append(Change(
                    old: oldWordStarts[wordHunk.old.lowerBound]..<oldWordStarts[wordHunk.old.upperBound],
                    new: newWordStarts[wordHunk.new.lowerBound]..<newWordStarts[wordHunk.new.upperBound], hunk: position))
            }
        }
        self.changes = changes
    }

    /// The offset (in scalars) of each line's start, and of the text's end after the last.
    private static func lineStarts(_ text: TextLines) -> [Int] {
        starts(of: text.lines, from: 0)
    }

    /// The offset of each piece's start when they follow one another from `offset`, and the end.
    private static func starts(of pieces: [Substring], from offset: Int) -> [Int] {
        var starts = [offset]
        starts.reserveCapacity(pieces.count + 1)
        for piece in pieces { starts.append(starts[starts.count - 1] + piece.unicodeScalars.count) }
        return starts
    }

    /// The text cut into words: runs of letters, digits and marks; runs of horizontal spaces; every
    /// other character alone (a line break included).
    static func words(in text: String) -> [Substring] {
        enum Kind { case word, space, other }
        func kind(_ character: Character) -> Kind {
            if character.isLetter || character.isNumber || character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .nonspacingMark }) {
                return .word
            }
            if character.isWhitespace && !character.isNewline { return .space }
            return .other
        }
        var words: [Substring] = []
        var start = text.startIndex
        var current: Kind?
        for index in text.indices {
            let next = kind(text[index])
            if let current, current == next, next != .other { continue }
            if current != nil { words.append(text[start..<index]) }
            start = index
            current = next
        }
        if current != nil { words.append(text[start...]) }
        return words
    }
}
