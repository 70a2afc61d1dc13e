import CGtk
import GtkKit
import GtkShim
import XCTest
import Platform

/// A list source over an array of identities that reports its changes as a fetched-results
/// controller does, and counts what the list model asks of it.
@MainActor
final class ArraySource: ListSource {
    var observer: ListSourceObserver<Int>?
    private(set) var identities: [Int]
    /// Index by identity, rebuilt after a change when first needed.
    private var indices: [Int: Int]?
    /// How many times `identity(at:)` was called.
    private(set) var identityReads = 0
    /// Every range the list asked to prefetch, in order.
    private(set) var prefetches: [Range<Int>] = []

    init(_ identities: [Int]) {
        self.identities = identities
    }

    var count: Int { identities.count }

    func identity(at index: Int) -> Int {
        identityReads += 1
        return identities[index]
    }

    func index(of identity: Int) -> Int? {
        if indices == nil {
            var indices: [Int: Int] = [:]
            indices.reserveCapacity(identities.count)
            for (index, identity) in identities.enumerated() { indices[identity] = index }
            self.indices = indices
        }
        return indices?[identity]
    }

    func prefetch(_ range: Range<Int>) {
        prefetches.append(range)
    }

    func resetCounts() {
        identityReads = 0
        prefetches = []
    }

    /// Takes the new rows, then reports `changes` in one batch, as a controller does after a
    /// save.
    func change(to newIdentities: [Int], reporting changes: [ListChange<Int>]) {
        identities = newIdentities
        indices = nil
        observer?.willChangeContent()
        for change in changes { observer?.didChange(change) }
        observer?.didChangeContent()
    }

    /// Takes new rows wholesale and reports a reload, as a controller does after a new fetch.
    func reload(_ newIdentities: [Int]) {
        identities = newIdentities
        indices = nil
        observer?.didReload()
    }
}

/// Random batches of changes with the indices an `NSFetchedResultsController` reports:
/// deletes and moves from old indices, inserts and moves to new indices, updates at old
/// indices; untouched rows keep their order. New rows get identities never used before.
struct RandomListChanges {
    private(set) var nextIdentity: Int

    init(firstNewIdentity: Int) {
        nextIdentity = firstNewIdentity
    }

    /// A batch of changes (sometimes none; up to about `maxChanges`) turning `old` into the
    /// result. Inserts and deletes balance around `typicalCount` rows.
    mutating func batch(
        from old: [Int], maxChanges: Int, typicalCount: Int = 60, using random: inout SeededGenerator
    ) -> (new: [Int], changes: [ListChange<Int>]) {
        let half = max(1, maxChanges / 2)
        var candidates = old.indices.shuffled(using: &random)[...]
        func take(upTo limit: Int) -> [Int] {
            let taken = Array(candidates.prefix(Int.random(in: 0...min(limit, candidates.count), using: &random)))
            candidates = candidates.dropFirst(taken.count)
            return taken
        }
        let deletes = take(upTo: half + (old.count > 2 * typicalCount ? half : 0))
        let moves = take(upTo: half)
        let updates = take(upTo: half / 2)
        let insertCount = Int.random(in: 0...(half + (old.count < typicalCount / 2 ? half : 0)), using: &random)

        let removed = Set(deletes).union(moves)
        var new = old.indices.filter { !removed.contains($0) }.map { old[$0] }
        let moved = moves.map { old[$0] }
        let inserted = (0..<insertCount).map { nextIdentity + $0 }
        nextIdentity += insertCount
        for identity in (moved + inserted).shuffled(using: &random) {
            new.insert(identity, at: Int.random(in: 0...new.count, using: &random))
        }
        let arriving = Set(moved + inserted)
        var newIndex: [Int: Int] = [:]
        for (index, identity) in new.enumerated() where arriving.contains(identity) { newIndex[identity] = index }

        var changes: [ListChange<Int>] = deletes.map { .delete(old[$0], at: $0) }
        changes += moves.map { .move(old[$0], from: $0, to: newIndex[old[$0]]!) }
        changes += updates.map { .update(old[$0], at: $0) }
        changes += inserted.map { .insert($0, at: newIndex[$0]!) }
        return (new, changes.shuffled(using: &random))
    }

    /// New rows for a reload: some old rows dropped, the rest shuffled, some new ones added.
    mutating func reload(from old: [Int], using random: inout SeededGenerator) -> [Int] {
        var new = old.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }.shuffled(using: &random)
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            new.insert(nextIdentity, at: Int.random(in: 0...new.count, using: &random))
            nextIdentity += 1
        }
        return new
    }
}

/// Replays a `GListModel`'s `items-changed` emissions on an array, as GTK would see them:
/// at each emission the new items are read from the model, and (for lists up to
/// `wholeListCheckLimit` rows) the whole model is checked against the replayed array, so the
/// model is exact between the emissions of a batch too.
@MainActor
final class ItemsChangedReplay<Source: ListSource> where Source.Identity == Int {
    private let model: ListModel<Source>
    private let wholeListCheckLimit: Int
    private(set) var identities: [Int]
    /// (position, removed, added) of every emission since the last `clearEmissions()`.
    private(set) var emissions: [[Int]] = []
    private(set) var mismatches: [String] = []
    private var connection: SignalConnection?

    init(model: ListModel<Source>, wholeListCheckLimit: Int = 400) {
        self.model = model
        self.wholeListCheckLimit = wholeListCheckLimit
        identities = []
        identities = presentedIdentities()
        connection = model.object.connect(Signal<(UInt32, UInt32, UInt32) -> Void>("items-changed")) {
            [unowned self] position, removed, added in
            replay(position: Int(position), removed: Int(removed), added: Int(added))
        }
    }

    private var itemCount: Int { Int(g_list_model_get_n_items(model.object.opaquePointer)) }

    private func replay(position: Int, removed: Int, added: Int) {
        emissions.append([position, removed, added])
        identities.removeSubrange(position..<position + removed)
        identities.insert(contentsOf: (position..<position + added).map(identity(at:)), at: position)
        if itemCount != identities.count {
            mismatches.append("after \(emissions.last!): the model has \(itemCount) items, the replay \(identities.count)")
        } else if itemCount <= wholeListCheckLimit, presentedIdentities() != identities {
            mismatches.append("after \(emissions.last!): the model shows \(presentedIdentities()), the replay \(identities)")
        }
    }

    func clearEmissions() {
        emissions = []
    }

    func presentedIdentities() -> [Int] {
        (0..<itemCount).map(identity(at:))
    }

    /// The identity of the item at `position`, read through `g_list_model_get_item` as GTK does.
    func identity(at position: Int) -> Int {
        guard let item = g_list_model_get_item(model.object.opaquePointer, guint(position)) else {
            preconditionFailure("no item at \(position)")
        }
        return model.identity(of: ListRowItem(owning: item))
    }

    isolated deinit {
        connection?.disconnect()
    }
}
