import XCTest

@testable import GtkKit
import Platform

/// The pure part of the list model: turning a batch into `items-changed` emissions.
final class ListChangePlanTests: XCTestCase {
    func testMovingTheFirstRowToTheEndIsTwoEmissions() throws {
        let plan = try ListChangePlan([ListChange.move(10, from: 0, to: 2)], oldCount: 3, newCount: 3) {
            [11, 12, 10][$0]
        }
        XCTAssertEqual(
            plan.emissions,
            [ItemsChanged(position: 0, removed: 1, added: 0), ItemsChanged(position: 2, removed: 0, added: 1)])
        XCTAssertEqual(plan.newIndex(ofOldIndex: 0), 2)
        XCTAssertEqual(plan.newIndex(ofOldIndex: 1), 0)
        XCTAssertEqual(plan.changed, [10])
    }

    func testAReplacementInPlaceIsOneEmission() throws {
        let plan = try ListChangePlan(
            [ListChange.delete(1, at: 1), .insert(9, at: 1), .update(2, at: 2)], oldCount: 3, newCount: 3
        ) { [0, 9, 2][$0] }
        XCTAssertEqual(plan.emissions, [ItemsChanged(position: 1, removed: 1, added: 1)])
        XCTAssertEqual(plan.deleted, [1])
        XCTAssertEqual(plan.inserted, [9])
        XCTAssertEqual(plan.changed, [2])
    }

    func testAnEmptyBatchEmitsNothing() throws {
        let plan = try ListChangePlan([ListChange<Int>](), oldCount: 5, newCount: 5) { $0 }
        XCTAssertEqual(plan.emissions, [])
        XCTAssertEqual(plan.position(3, afterEmissions: 0), .new(3))
        XCTAssertEqual(plan.newIndex(ofOldIndex: 4), 4)
    }

    func testBatchesThatDoNotFitTheListAreRejected() {
        func check(
            _ changes: [ListChange<Int>], old: Int, new: [Int], _ expected: ListChangeError, line: UInt = #line
        ) {
            XCTAssertThrowsError(try ListChangePlan(changes, oldCount: old, newCount: new.count) { new[$0] }, line: line) {
                XCTAssertEqual($0 as? ListChangeError, expected, line: line)
            }
        }
        check([.delete(1, at: 3)], old: 3, new: [0, 1], .removalOutOfRange(index: 3, oldCount: 3))
        check([.insert(7, at: 4)], old: 3, new: [0, 1, 2, 7], .insertionOutOfRange(index: 4, newCount: 4))
        check([.delete(1, at: 1), .move(1, from: 1, to: 0)], old: 3, new: [1, 0], .removedTwice(index: 1))
        check([.insert(7, at: 0), .insert(8, at: 0)], old: 1, new: [7, 8, 0], .insertedTwice(index: 0))
        check([.update(0, at: 5)], old: 3, new: [0, 1, 2], .updateOutOfRange(index: 5, oldCount: 3))
        check([.delete(0, at: 0)], old: 3, new: [0, 1, 2], .countMismatch(oldCount: 3, removed: 1, inserted: 0, newCount: 3))
        check([.insert(7, at: 1)], old: 2, new: [0, 8, 1], .identityMismatch(index: 1, reported: "7", found: "8"))
    }

    /// Thousands of random batches: replaying the emissions on the old array gives the new
    /// array, every position between emissions resolves to what the replay holds there, every
    /// surviving row is found at its new index, and the emissions are one per gap between
    /// untouched rows (none could be merged).
    func testRandomBatchesReplayExactly() throws {
        var random = SeededGenerator(seed: 0x5eed_0001)
        var changes = RandomListChanges(firstNewIdentity: 1_000)
        var old = Array(0..<60)
        var emissionCount = 0
        var rowCount = 0
        for step in 0..<5_000 {
            let maxChanges = step % 50 == 0 ? 60 : 8
            let (new, batch) = changes.batch(from: old, maxChanges: maxChanges, using: &random)
            let plan = try ListChangePlan(batch, oldCount: old.count, newCount: new.count) { new[$0] }

            var replayed = old
            for (offset, emission) in plan.emissions.enumerated() {
                XCTAssertTrue(emission.removed > 0 || emission.added > 0, "step \(step): empty emission")
                let emitted = offset + 1
                let added = (emission.position..<emission.position + emission.added).map { position in
                    guard case .new(let index) = plan.position(position, afterEmissions: emitted) else {
                        XCTFail("step \(step): an added position resolves to the old list")
                        return -1
                    }
                    return new[index]
                }
                replayed.replaceSubrange(emission.position..<emission.position + emission.removed, with: added)
                XCTAssertEqual(plan.count(afterEmissions: emitted), replayed.count, "step \(step)")
                for position in replayed.indices {
                    let resolved: Int
                    switch plan.position(position, afterEmissions: emitted) {
                    case .new(let index): resolved = new[index]
                    case .old(let index): resolved = old[index]
                    }
                    XCTAssertEqual(resolved, replayed[position], "step \(step), emission \(emitted), position \(position)")
                }
            }
            XCTAssertEqual(replayed, new, "step \(step): \(batch)")

            for (index, identity) in old.enumerated() {
                if let newIndex = plan.newIndex(ofOldIndex: index) {
                    XCTAssertEqual(new[newIndex], identity, "step \(step)")
                } else {
                    XCTAssertFalse(new.contains(identity), "step \(step): \(identity) stays but has no new index")
                }
            }
            XCTAssertEqual(plan.emissions, Self.gaps(from: old, to: new, changes: batch), "step \(step)")
            emissionCount += plan.emissions.count
            rowCount += new.count
            old = new
        }
        // The sequence did real work: lists of tens of rows, several emissions per batch.
        XCTAssertGreaterThan(rowCount / 5_000, 20)
        XCTAssertGreaterThan(emissionCount, 10_000)
    }

    /// The emissions worked out the slow way: walk the untouched rows and emit each gap
    /// between them that lost or gained rows.
    private static func gaps(from old: [Int], to new: [Int], changes: [ListChange<Int>]) -> [ItemsChanged] {
        var removed = Set<Int>()
        var arrived = Set<Int>()
        for change in changes {
            switch change {
            case .delete(let identity, _): removed.insert(identity)
            case .insert(let identity, _): arrived.insert(identity)
            case .move(let identity, _, _):
                removed.insert(identity)
                arrived.insert(identity)
            case .update: break
            }
        }
        var gaps: [ItemsChanged] = []
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < old.count || newIndex < new.count {
            var gap = ItemsChanged(position: newIndex, removed: 0, added: 0)
            while oldIndex < old.count, removed.contains(old[oldIndex]) {
                gap.removed += 1
                oldIndex += 1
            }
            while newIndex < new.count, arrived.contains(new[newIndex]) {
                gap.added += 1
                newIndex += 1
            }
            if gap.removed > 0 || gap.added > 0 { gaps.append(gap) }
            // Both now point at the same untouched row, or at the end.
            oldIndex += 1
            newIndex += 1
        }
        return gaps
    }
}
