import Library

/// Which lines of one version the conflict dialog highlights: those the version changed against
/// the base, and, more strongly, those in a place where both sides changed the text. Line indices
/// from 0, as ``LineDiff`` and ``ConflictHunk`` count them.
struct ChangeHighlights: Equatable {
    /// Lines this version changed where the merge could take the change by itself.
    var changed: [Range<Int>]
    /// Lines in the places the writer must decide.
    var conflicting: [Range<Int>]

    /// The highlights of this device's body.
    static func mine(of merge: TextMerge, base: String, mine: String) -> ChangeHighlights {
        ChangeHighlights(
            changed: LineDiff(from: base, to: mine).hunks.map(\.new).filter { !$0.isEmpty },
            conflicting: merge.conflicts.map(\.mineLines).filter { !$0.isEmpty })
    }

    /// The highlights of the server's body.
    static func theirs(of merge: TextMerge, base: String, theirs: String) -> ChangeHighlights {
        ChangeHighlights(
            changed: LineDiff(from: base, to: theirs).hunks.map(\.new).filter { !$0.isEmpty },
            conflicting: merge.conflicts.map(\.theirsLines).filter { !$0.isEmpty })
    }

    /// The highlights of the base: the lines either side replaced or deleted.
    static func base(of merge: TextMerge, base: String, mine: String, theirs: String) -> ChangeHighlights {
        let replaced = (LineDiff(from: base, to: mine).hunks + LineDiff(from: base, to: theirs).hunks).map(\.old)
        return ChangeHighlights(
            changed: replaced.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound },
            conflicting: merge.conflicts.map(\.baseLines).filter { !$0.isEmpty })
    }
}
