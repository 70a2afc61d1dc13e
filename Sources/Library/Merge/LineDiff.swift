/// The differences between two sequences of lines, as hunks of replaced lines, found with Myers'
/// O(ND) algorithm under a cost limit.
///
/// The cost is the number of lines inserted plus deleted (D). Myers' algorithm does O((N + M) · D)
/// work and keeps O(D²) state, so capping D bounds both, deterministically, whatever the input.
/// When the cheapest script costs more than the limit, the diff gives up on the part between the
/// common prefix and suffix and reports it as one hunk with ``exceededCostLimit`` set: still a
/// correct diff (every line it calls unchanged is unchanged), only a coarse one.
public struct LineDiff: Sendable, Hashable {
    /// One run of changed lines: `old` lines were replaced by `new` lines. Either range may be empty
    /// (a pure insertion or deletion); an empty range still says where the change sits.
    public struct Hunk: Sendable, Hashable {
        /// The replaced lines of the old text (line indices).
        public var old: Range<Int>
        /// The lines of the new text that replace them.
        public var new: Range<Int>
    }

    /// The largest edit cost a diff computes exactly unless told otherwise.
    public static let defaultCostLimit = 1000

    /// The hunks, in order, separated by at least one unchanged line.
    public let hunks: [Hunk]
    /// Whether the cost limit stopped the search and the middle became one coarse hunk.
    public let exceededCostLimit: Bool

    /// Compares two texts line by line (see ``TextLines`` for what a line is), for showing the
    /// changes between two versions side by side.
    public init(from old: String, to new: String, costLimit: Int = LineDiff.defaultCostLimit) {
        var interner = LineInterner()
        let oldNumbers = interner.numbers(for: TextLines(old))
        let newNumbers = interner.numbers(for: TextLines(new))
        self.init(old: oldNumbers, new: newNumbers, costLimit: costLimit)
    }

    /// Compares two sequences of interned lines.
    init(old: [Int], new: [Int], costLimit: Int) {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)

        if oldMiddle.isEmpty && newMiddle.isEmpty {
            hunks = []
            exceededCostLimit = false
        } else if oldMiddle.isEmpty || newMiddle.isEmpty {
            hunks = [Hunk(old: oldMiddle, new: newMiddle)]
            exceededCostLimit = false
        } else if let matches = Self.matches(old[oldMiddle], new[newMiddle], costLimit: max(0, costLimit)) {
            hunks = Self.hunks(between: matches, old: oldMiddle, new: newMiddle)
            exceededCostLimit = false
        } else {
            hunks = [Hunk(old: oldMiddle, new: newMiddle)]
            exceededCostLimit = true
        }
    }

    /// The matched line pairs (old index, new index) of a shortest edit script, in order, or `nil`
    /// when every script costs more than `costLimit`. Indices are those of the slices' bases.
    private static func matches(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>, costLimit: Int) -> [(Int, Int)]? {
        let n = a.count
        let m = b.count
        let aStart = a.startIndex
        let bStart = b.startIndex
        let maximumCost = min(n + m, costLimit)
        // frontier[k + offset] is the furthest x reached on diagonal k = x - y.
        let offset = maximumCost + 1
        var frontier = [Int](repeating: 0, count: 2 * maximumCost + 3)
        // trace[d] holds the frontier before step d, for diagonals -d...d (index k + d).
        var trace: [[Int]] = []
        var finalCost: Int?
        search: for cost in 0...maximumCost {
            trace.append(Array(frontier[(offset - cost)...(offset + cost)]))
            for k in stride(from: -cost, through: cost, by: 2) {
                var x: Int
                if k == -cost || (k != cost && frontier[offset + k - 1] < frontier[offset + k + 1]) {
                    x = frontier[offset + k + 1]
                } else {
                    x = frontier[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[aStart + x] == b[bStart + y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n && y >= m {
                    finalCost = cost
                    break search
                }
            }
        }
        guard let finalCost else { return nil }

        var pairs: [(Int, Int)] = []
        var x = n
        var y = m
        for cost in stride(from: finalCost, to: 0, by: -1) {
            let previous = trace[cost]  // the frontier after step cost - 1, index k + cost
            let k = x - y
            let cameFromAbove = k == -cost || (k != cost && previous[k - 1 + cost] < previous[k + 1 + cost])
            let previousK = cameFromAbove ? k + 1 : k - 1
            let previousX = previous[previousK + cost]
            let previousY = previousX - previousK
            // The snake after the single edit of this step.
            let editEndX = cameFromAbove ? previousX : previousX + 1
            while x > editEndX {
                x -= 1
                y -= 1
                pairs.append((aStart + x, bStart + y))
            }
            x = previousX
            y = previousY
        }
        while x > 0 {
            x -= 1
            y -= 1
            pairs.append((aStart + x, bStart + y))
        }
        return pairs.reversed()
    }

    /// Turns matched pairs into the hunks between them.
    private static func hunks(between matches: [(Int, Int)], old: Range<Int>, new: Range<Int>) -> [Hunk] {
        var hunks: [Hunk] = []
        var oldPosition = old.lowerBound
        var newPosition = new.lowerBound
        for (oldIndex, newIndex) in matches + [(old.upperBound, new.upperBound)] {
            if oldIndex > oldPosition || newIndex > newPosition {
                hunks.append(Hunk(old: oldPosition..<oldIndex, new: newPosition..<newIndex))
            }
            oldPosition = oldIndex + 1
            newPosition = newIndex + 1
        }
        return hunks
    }
}
