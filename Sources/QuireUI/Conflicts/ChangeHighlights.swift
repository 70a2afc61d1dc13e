import Library

/// Which parts of one version the conflict dialog and the History panel highlight: the lines the
/// version changed against the other text, inside them the words that differ (``WordDiff``), and,
/// more strongly, the lines in a place where both sides changed the text. Line indices from 0, as
/// ``LineDiff`` and ``ConflictHunk`` count them; words as character offsets.
struct ChangeHighlights: Equatable {
    /// Lines this version changed where the merge could take the change by itself.
    var changed: [Range<Int>]
    /// Lines in the places the writer must decide.
    var conflicting: [Range<Int>]
    /// The characters that differ inside the changed lines (Unicode scalar offsets, as a text
    /// buffer counts characters): "desktop" in "rewritten on the desktop", not the whole line.
    var words: [Range<Int>] = []

    /// The highlights of this device's body.
    static func mine(of merge: TextMerge, base: String, mine: String) -> ChangeHighlights {
        changes(from: base, to: mine, conflicting: merge.conflicts.map(\.mineLines))
    }

    /// The highlights of the server's body.
    static func theirs(of merge: TextMerge, base: String, theirs: String) -> ChangeHighlights {
        changes(from: base, to: theirs, conflicting: merge.conflicts.map(\.theirsLines))
    }

    /// The highlights of `text` against `other`: what History shows of an earlier version
    /// against the article's current text (nothing conflicts there).
    static func changes(from other: String, to text: String, conflicting: [Range<Int>] = []) -> ChangeHighlights {
        let diff = WordDiff(from: other, to: text)
        return ChangeHighlights(
            changed: diff.lines.hunks.map(\.new).filter { !$0.isEmpty },
            conflicting: conflicting.filter { !$0.isEmpty },
            words: diff.changes.map(\.new).filter { !$0.isEmpty })
    }

    /// The highlights of the base: the lines either side replaced or deleted, and their words.
    static func base(of merge: TextMerge, base: String, mine: String, theirs: String) -> ChangeHighlights {
        let diffs = [WordDiff(from: base, to: mine), WordDiff(from: base, to: theirs)]
        let replaced = diffs.flatMap { $0.lines.hunks.map(\.old) }
        return ChangeHighlights(
            changed: replaced.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound },
            conflicting: merge.conflicts.map(\.baseLines).filter { !$0.isEmpty },
            words: diffs.flatMap { $0.changes.map(\.old) }.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound })
    }
}
