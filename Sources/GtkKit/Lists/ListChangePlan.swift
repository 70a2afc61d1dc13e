/// One `items-changed` emission: at `position`, `removed` items leave and `added` arrive.
struct ItemsChanged: Hashable, Sendable, CustomStringConvertible {
    var position: Int
    var removed: Int
    var added: Int

    var description: String { "items_changed(\(position), \(removed), \(added))" }
}

/// A batch of ``ListChange``s resolved against the list it changes: the fewest `items-changed`
/// emissions that turn the old list into the new one, and, for the moments between those
/// emissions, what each position holds.
///
/// Rows the batch neither removes nor inserts (the survivors) keep their order, so the batch is
/// a series of gaps between survivors, each losing some old rows and gaining some new ones. Each
/// non-empty gap is one emission, made from the first gap to the last; after emitting gap `k`,
/// the list is the new list up to the end of gap `k` followed by the old list after it.
/// Resolving costs O(c log c) for c changes, whatever the length of the list.
struct ListChangePlan<Identity: Hashable & Sendable> {
    /// Where a position points while the plan is being emitted.
    enum Position: Equatable {
        /// The row at this index of the new list.
        case new(Int)
        /// The row at this index of the old list (after the emissions so far).
        case old(Int)
    }

    let oldCount: Int
    let newCount: Int
    /// The emissions, in order.
    let emissions: [ItemsChanged]
    /// Rows that leave the list, deleted ones only (moved rows stay in it).
    let deleted: [Identity]
    /// Rows that join the list, inserted ones only.
    let inserted: [Identity]
    /// Rows whose data changed: updated and moved ones.
    let changed: [Identity]

    /// Old indices of removed rows (deletions and move sources), ascending.
    private let removedIndices: [Int]
    /// For each new index a row is inserted or moved to (ascending), the number of survivors
    /// before it: the gap it lands in.
    private let insertedGaps: [Int]
    /// The identities of removed rows by old index.
    private let removedIdentities: [Int: Identity]
    /// New indices of moved rows by old index.
    private let moveDestinations: [Int: Int]
    /// After emission `k`: where the new list ends and where the rest of the old list resumes.
    private let boundaries: [(newEnd: Int, oldResume: Int)]

    /// Resolves `changes` against a list of `oldCount` rows that became `newCount` rows whose
    /// identities `newIdentity` tells; arrivals are checked against it.
    init(
        _ changes: [ListChange<Identity>], oldCount: Int, newCount: Int,
        newIdentity: (Int) -> Identity
    ) throws(ListChangeError) {
        var removedIdentities: [Int: Identity] = [:]
        var arrivals: [Int: Identity] = [:]
        var moveDestinations: [Int: Int] = [:]
        var deleted: [Identity] = []
        var inserted: [Identity] = []
        var changed: [Identity] = []

        func remove(_ identity: Identity, at index: Int) throws(ListChangeError) {
            guard index >= 0, index < oldCount else { throw .removalOutOfRange(index: index, oldCount: oldCount) }
            guard removedIdentities.updateValue(identity, forKey: index) == nil else { throw .removedTwice(index: index) }
        }
        func arrive(_ identity: Identity, at index: Int) throws(ListChangeError) {
            guard index >= 0, index < newCount else { throw .insertionOutOfRange(index: index, newCount: newCount) }
            guard arrivals.updateValue(identity, forKey: index) == nil else { throw .insertedTwice(index: index) }
        }

        for change in changes {
            switch change {
            case .insert(let identity, let index):
                try arrive(identity, at: index)
                inserted.append(identity)
            case .delete(let identity, let index):
                try remove(identity, at: index)
                deleted.append(identity)
            case .move(let identity, let from, let to):
                try remove(identity, at: from)
                try arrive(identity, at: to)
                moveDestinations[from] = to
                changed.append(identity)
            case .update(let identity, let index):
                guard index >= 0, index < oldCount else { throw .updateOutOfRange(index: index, oldCount: oldCount) }
                changed.append(identity)
            }
        }
        guard oldCount - removedIdentities.count + arrivals.count == newCount else {
            throw .countMismatch(
                oldCount: oldCount, removed: removedIdentities.count, inserted: arrivals.count, newCount: newCount)
        }
        for (index, identity) in arrivals {
            let found = newIdentity(index)
            guard found == identity else {
                throw .identityMismatch(index: index, reported: "\(identity)", found: "\(found)")
            }
        }

        let removedIndices = removedIdentities.keys.sorted()
        let insertedIndices = arrivals.keys.sorted()
        // The k-th removal (ascending) has k removals before it, so index - k survivors: the
        // gap it leaves from. Likewise for arrivals in the new list.
        let removedGaps = removedIndices.enumerated().map { $0.element - $0.offset }
        let insertedGaps = insertedIndices.enumerated().map { $0.element - $0.offset }

        var emissions: [ItemsChanged] = []
        var boundaries: [(newEnd: Int, oldResume: Int)] = []
        var removedSoFar = 0
        var addedSoFar = 0
        var nextRemoval = 0
        var nextArrival = 0
        while nextRemoval < removedGaps.count || nextArrival < insertedGaps.count {
            let gap = min(
                nextRemoval < removedGaps.count ? removedGaps[nextRemoval] : Int.max,
                nextArrival < insertedGaps.count ? insertedGaps[nextArrival] : Int.max)
            var removed = 0
            while nextRemoval < removedGaps.count, removedGaps[nextRemoval] == gap {
                removed += 1
                nextRemoval += 1
            }
            var added = 0
            while nextArrival < insertedGaps.count, insertedGaps[nextArrival] == gap {
                added += 1
                nextArrival += 1
            }
            // Everything before the gap is already new: `gap` survivors and the arrivals so far.
            let position = gap + addedSoFar
            emissions.append(ItemsChanged(position: position, removed: removed, added: added))
            removedSoFar += removed
            addedSoFar += added
            boundaries.append((newEnd: position + added, oldResume: gap + removedSoFar))
        }

        self.oldCount = oldCount
        self.newCount = newCount
        self.emissions = emissions
        self.deleted = deleted
        self.inserted = inserted
        self.changed = changed
        self.removedIndices = removedIndices
        self.insertedGaps = insertedGaps
        self.removedIdentities = removedIdentities
        self.moveDestinations = moveDestinations
        self.boundaries = boundaries
    }

    /// The number of rows after the first `emitted` emissions.
    func count(afterEmissions emitted: Int) -> Int {
        guard emitted > 0 else { return oldCount }
        let boundary = boundaries[emitted - 1]
        return boundary.newEnd + oldCount - boundary.oldResume
    }

    /// What `position` holds after the first `emitted` emissions.
    func position(_ position: Int, afterEmissions emitted: Int) -> Position {
        if emitted == emissions.count { return .new(position) }
        guard emitted > 0 else { return .old(position) }
        let boundary = boundaries[emitted - 1]
        if position < boundary.newEnd { return .new(position) }
        return .old(position - boundary.newEnd + boundary.oldResume)
    }

    /// The identity of the row that leaves from old index `index`, or nil if it stays.
    func removedIdentity(atOldIndex index: Int) -> Identity? {
        removedIdentities[index]
    }

    /// Where the row at old index `index` is in the new list, or nil if it was deleted.
    func newIndex(ofOldIndex index: Int) -> Int? {
        if let destination = moveDestinations[index] { return destination }
        if removedIdentities[index] != nil { return nil }
        let survivorsBefore = index - removedIndices.partitioningIndex { $0 >= index }
        // Arrivals in gaps up to this survivor's land before it.
        return survivorsBefore + insertedGaps.partitioningIndex { $0 > survivorsBefore }
    }
}

extension Array {
    /// The first index whose element satisfies `isAfter`, for an array where every element
    /// that does comes after every element that does not (binary search).
    func partitioningIndex(where isAfter: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if isAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
