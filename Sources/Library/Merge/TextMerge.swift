/// A line-based three-way merge (diff3) of one text against the version both sides started from.
///
/// Each side is diffed against the base with ``LineDiff``. Their hunks are laid on the base's lines
/// and grouped; a group is a stretch of base lines that at least one side changed. Inside a group:
/// if only one side changed it, that side's lines win; if both made the same change, it is taken
/// once; otherwise the group is a ``ConflictHunk``. Lines outside every group are unchanged on both
/// sides and are kept.
///
/// Three rules decide what counts as one group, and so keep the merge from guessing:
/// - **Adjacent edits conflict.** Hunks whose base ranges overlap or merely touch (no unchanged base
///   line between them, an insertion right before or after a changed line included) join one group.
///   Two sides' edits on neighbouring lines therefore conflict, as in `git merge`.
/// - **Runs of blank or identical base lines do not separate edits.** A base line is *ambiguous* when
///   it belongs to a run of two or more consecutive base lines that are all blank (whitespace only)
///   or all byte-for-byte identical. In such a run the diff's choice of which copy matches which is
///   arbitrary, so an unchanged stretch made only of ambiguous lines is no evidence that two edits
///   are apart: the groups on both sides of it, and the stretch itself, become one group. A single
///   blank line between two distinct lines (the usual paragraph break) is not ambiguous and does
///   separate edits.
/// - **Diff time is bounded.** Each diff stops at its cost limit (see ``LineDiff``); a side that
///   exceeds it counts as having replaced its whole changed middle, which then conflicts with any
///   change of the other side inside that middle.
///
/// Lines keep their own terminators (see ``TextLines``), so CRLF texts merge as CRLF, and lines
/// compare by exact bytes.
public struct TextMerge: Sendable, Hashable {
    /// Which side a merged change came from.
    public enum Source: Sendable, Hashable {
        /// Only this device changed the place.
        case mine
        /// Only the other side changed the place.
        case theirs
        /// Both sides made the same change.
        case both
    }

    /// A stretch of the merged text.
    public enum Region: Sendable, Hashable {
        /// Text that no side changed.
        case unchanged(String)
        /// A change the merge took from one side (or from both, when they agree).
        case changed(String, from: Source)
        /// A place where the writer must choose.
        case conflict(ConflictHunk)
    }

    /// The merged text in order: unchanged stretches, changes taken, and conflicts.
    public let regions: [Region]

    /// The conflicts, in text order; empty when the merge is clean.
    public var conflicts: [ConflictHunk] {
        regions.compactMap { if case .conflict(let hunk) = $0 { hunk } else { nil } }
    }

    /// Whether the merge needs no decision.
    public var isClean: Bool { conflicts.isEmpty }

    /// The merged text when the merge is clean; `nil` when a conflict needs the writer.
    public var mergedText: String? { isClean ? resolved { _ in .mine } : nil }

    /// Whether either side took any change at all (a clean merge may still be a no-op).
    public var hasChanges: Bool {
        regions.contains { if case .unchanged = $0 { false } else { true } }
    }

    /// The merged text with every conflict replaced by the text of the writer's choice for it.
    public func resolved(_ choice: (ConflictHunk) -> ConflictChoice) -> String {
        var text = ""
        for region in regions {
            switch region {
            case .unchanged(let part), .changed(let part, _): text += part
            case .conflict(let hunk): text += hunk.text(for: choice(hunk))
            }
        }
        return text
    }

    /// Merges `mine` and `theirs`, both derived from `base`.
    public static func merge(
        base: String, mine: String, theirs: String, costLimit: Int = LineDiff.defaultCostLimit
    ) -> TextMerge {
        let baseLines = TextLines(base)
        let mineLines = TextLines(mine)
        let theirsLines = TextLines(theirs)
        var interner = LineInterner()
        let baseNumbers = interner.numbers(for: baseLines)
        let mineNumbers = interner.numbers(for: mineLines)
        let theirsNumbers = interner.numbers(for: theirsLines)
        let mineDiff = LineDiff(old: baseNumbers, new: mineNumbers, costLimit: costLimit)
        let theirsDiff = LineDiff(old: baseNumbers, new: theirsNumbers, costLimit: costLimit)
        let ambiguous = ambiguousLines(baseNumbers, isBlank: interner.isBlank)
        let groups = Self.groups(mine: mineDiff, theirs: theirsDiff, ambiguous: ambiguous)
        let lineEnding = Self.prevailingLineEnding(baseLines, mineLines, theirsLines)

        var regions: [Region] = []
        var basePosition = 0
        var mineDelta = 0
        var theirsDelta = 0
        var conflictCount = 0
        for group in groups {
            if group.base.lowerBound > basePosition {
                regions.append(.unchanged(baseLines.text(basePosition..<group.base.lowerBound)))
            }
            let mineRange = group.sideRange(.mine, delta: mineDelta)
            let theirsRange = group.sideRange(.theirs, delta: theirsDelta)
            mineDelta += group.delta(.mine)
            theirsDelta += group.delta(.theirs)
            let baseSlice = baseNumbers[group.base]
            let mineSlice = mineNumbers[mineRange]
            let theirsSlice = theirsNumbers[theirsRange]
            if mineSlice.elementsEqual(theirsSlice) {
                regions.append(.changed(mineLines.text(mineRange), from: .both))
            } else if mineSlice.elementsEqual(baseSlice) {
                regions.append(.changed(theirsLines.text(theirsRange), from: .theirs))
            } else if theirsSlice.elementsEqual(baseSlice) {
                regions.append(.changed(mineLines.text(mineRange), from: .mine))
            } else {
                regions.append(.conflict(ConflictHunk(
                    id: conflictCount, base: baseLines.text(group.base), mine: mineLines.text(mineRange),
                    theirs: theirsLines.text(theirsRange), baseLines: group.base, mineLines: mineRange,
                    theirsLines: theirsRange,
                    reason: group.reason(mineCoarse: mineDiff.exceededCostLimit, theirsCoarse: theirsDiff.exceededCostLimit),
                    lineEnding: lineEnding)))
                conflictCount += 1
            }
            basePosition = group.base.upperBound
        }
        if basePosition < baseLines.count {
            regions.append(.unchanged(baseLines.text(basePosition..<baseLines.count)))
        }
        return TextMerge(regions: regions)
    }

    /// "\r\n" when most terminated lines of the texts end so, "\n" otherwise.
    private static func prevailingLineEnding(_ texts: TextLines...) -> String {
        var crlf = 0
        var lf = 0
        for text in texts {
            for line in text.lines where line.utf8.last == UInt8(ascii: "\n") {
                if line.utf8.dropLast().last == UInt8(ascii: "\r") { crlf += 1 } else { lf += 1 }
            }
        }
        return crlf > lf ? "\r\n" : "\n"
    }

    /// Marks base lines that sit in a run (two or more consecutive lines) of blank lines or of
    /// identical lines.
    private static func ambiguousLines(_ base: [Int], isBlank: [Bool]) -> [Bool] {
        var ambiguous = [Bool](repeating: false, count: base.count)
        var runStart = 0
        while runStart < base.count {
            var runEnd = runStart + 1
            if isBlank[base[runStart]] {
                while runEnd < base.count, isBlank[base[runEnd]] { runEnd += 1 }
            } else {
                while runEnd < base.count, base[runEnd] == base[runStart] { runEnd += 1 }
            }
            if runEnd - runStart >= 2 {
                for index in runStart..<runEnd { ambiguous[index] = true }
            }
            runStart = runEnd
        }
        return ambiguous
    }

    /// Lays both sides' hunks on the base and joins them into groups by the rules above.
    private static func groups(mine: LineDiff, theirs: LineDiff, ambiguous: [Bool]) -> [HunkGroup] {
        let hunks = (mine.hunks.map { SideHunk(side: .mine, hunk: $0) } + theirs.hunks.map { SideHunk(side: .theirs, hunk: $0) })
            .sorted { ($0.hunk.old.lowerBound, $0.hunk.old.upperBound) < ($1.hunk.old.lowerBound, $1.hunk.old.upperBound) }
        var groups: [HunkGroup] = []
        for hunk in hunks {
            if var last = groups.last, hunk.hunk.old.lowerBound <= last.base.upperBound {
                last.add(hunk)
                groups[groups.count - 1] = last
            } else if var last = groups.last,
                      ambiguous[last.base.upperBound..<hunk.hunk.old.lowerBound].allSatisfy({ $0 }) {
                last.add(hunk, acrossAmbiguousGap: true)
                groups[groups.count - 1] = last
            } else {
                groups.append(HunkGroup(first: hunk))
            }
        }
        return groups
    }
}

/// Which side of a merge a hunk belongs to.
private enum MergeSide { case mine, theirs }

/// One side's hunk against the base.
private struct SideHunk {
    let side: MergeSide
    let hunk: LineDiff.Hunk
}

/// A stretch of base lines that one or both sides changed, merged as one piece.
private struct HunkGroup {
    private(set) var base: Range<Int>
    private(set) var hunks: [SideHunk]
    private(set) var crossesAmbiguousGap = false

    init(first: SideHunk) {
        base = first.hunk.old
        hunks = [first]
    }

    mutating func add(_ hunk: SideHunk, acrossAmbiguousGap: Bool = false) {
        base = base.lowerBound..<max(base.upperBound, hunk.hunk.old.upperBound)
        hunks.append(hunk)
        crossesAmbiguousGap = crossesAmbiguousGap || acrossAmbiguousGap
    }

    /// How many lines the side's hunks in this group add (negative when they remove).
    func delta(_ side: MergeSide) -> Int {
        hunks.filter { $0.side == side }.reduce(0) { $0 + $1.hunk.new.count - $1.hunk.old.count }
    }

    /// The side's lines for this group, given how many lines its earlier hunks added.
    func sideRange(_ side: MergeSide, delta: Int) -> Range<Int> {
        let start = base.lowerBound + delta
        return start..<(base.upperBound + delta + self.delta(side))
    }

    func reason(mineCoarse: Bool, theirsCoarse: Bool) -> ConflictHunk.Reason {
        if mineCoarse || theirsCoarse { return .diffTooLarge }
        let mine = hunks.filter { $0.side == .mine }.map(\.hunk.old)
        let theirs = hunks.filter { $0.side == .theirs }.map(\.hunk.old)
        var touches = false
        for a in mine {
            for b in theirs {
                if Self.overlap(a, b) { return .overlapping }
                if a.upperBound == b.lowerBound || b.upperBound == a.lowerBound { touches = true }
            }
        }
        return touches || !crossesAmbiguousGap ? .adjacent : .ambiguousBase
    }

    /// Whether two base ranges share a line, or are insertions at the same place, or one is an
    /// insertion strictly inside the other.
    private static func overlap(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a.isEmpty && b.isEmpty { return a.lowerBound == b.lowerBound }
        if a.isEmpty { return b.lowerBound < a.lowerBound && a.lowerBound < b.upperBound }
        if b.isEmpty { return a.lowerBound < b.lowerBound && b.lowerBound < a.upperBound }
        return a.overlaps(b)
    }
}
