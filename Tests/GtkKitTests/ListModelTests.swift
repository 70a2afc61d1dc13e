import CGtk
import GtkShim
import GtkTestSupport
import XCTest

@testable import GtkKit
import Platform

final class ListModelTests: GtkTestCase, @unchecked Sendable {
    /// Thousands of random batches and reloads: after every one, replaying the model's
    /// `items-changed` emissions on an array gives the source's rows (and the model is exact
    /// between emissions); items someone holds keep their identity and follow their row;
    /// items of rows that left say so; items nobody holds are dropped.
    func testRandomBatchesReplayExactlyAndItemsFollowTheirRows() {
        MainActor.assumeIsolated {
            var random = SeededGenerator(seed: 0x11_57_30de1)
            var changes = RandomListChanges(firstNewIdentity: 10_000)
            let source = ArraySource(Array(0..<80))
            let model = ListModel(source: source)
            let replay = ItemsChangedReplay(model: model)
            var held: [Int: ListRowItem] = [:]
            var reloads = 0

            for step in 0..<3_000 {
                // Hold a few items, as GTK holds the rows it shows, and let a few go.
                for _ in 0..<3 where model.count > 0 {
                    let position = Int.random(in: 0..<model.count, using: &random)
                    let item = model.item(at: position)!
                    held[model.identity(of: item)] = item
                }
                for identity in held.keys.shuffled(using: &random).prefix(2) { held[identity] = nil }

                if step % 97 == 0 {
                    source.reload(changes.reload(from: source.identities, using: &random))
                    reloads += 1
                } else {
                    let maxChanges = step % 31 == 0 ? 40 : 8
                    let (new, batch) = changes.batch(from: source.identities, maxChanges: maxChanges, using: &random)
                    source.change(to: new, reporting: batch)
                }

                XCTAssertEqual(replay.mismatches, [], "step \(step)")
                XCTAssertEqual(replay.identities, source.identities, "step \(step)")
                for (identity, item) in held {
                    if let index = source.index(of: identity) {
                        XCTAssertEqual(item.position, index, "step \(step): the item follows its row")
                        XCTAssertEqual(
                            model.item(at: index)!.objectPointer, item.objectPointer, "step \(step): the same item for the row")
                    } else {
                        XCTAssertNil(item.position, "step \(step): the row of \(identity) left")
                        held[identity] = nil
                    }
                }
                XCTAssertEqual(model.presented.liveItemCount, held.count, "step \(step): only held items stay")
                if !replay.mismatches.isEmpty { return }
            }
            XCTAssertGreaterThan(replay.emissions.count, 6_000, "the sequence did real work")
            XCTAssertEqual(reloads, 31)
        }
    }

    func testAReloadToAShortListIsOneEmission() {
        MainActor.assumeIsolated {
            let source = ArraySource(Array(0..<50))
            let model = ListModel(source: source)
            let replay = ItemsChangedReplay(model: model)
            let kept = model.item(at: 10)!
            source.reload(Array((5..<60).reversed()))
            XCTAssertEqual(replay.emissions, [[0, 50, 55]])
            XCTAssertEqual(replay.mismatches, [])
            XCTAssertEqual(replay.identities, source.identities)
            XCTAssertEqual(kept.position, 49, "row 10 is now the 50th of 59 ... 5")
            XCTAssertEqual(model.item(at: 49)!.objectPointer, kept.objectPointer)

            replay.clearEmissions()
            source.reload([])
            source.reload([])
            source.reload([7])
            XCTAssertEqual(replay.emissions, [[0, 55, 0], [0, 0, 1]], "empty lists emit nothing")
            XCTAssertNil(kept.position)
        }
    }

    /// A reload to a long list is "every row left, then new rows arrived": one emission would
    /// make GTK 4.8 ask for every new row.
    func testAReloadToALongListRemovesAllThenAddsAll() {
        MainActor.assumeIsolated {
            let rows = PresentedList<ArraySource>.singleEmissionReloadLimit + 1
            let source = ArraySource(Array(0..<10))
            let model = ListModel(source: source)
            let replay = ItemsChangedReplay(model: model)
            source.reload(Array(0..<rows))
            XCTAssertEqual(replay.emissions, [[0, 10, 0], [0, 0, rows]])
            XCTAssertEqual(replay.mismatches, [])
            XCTAssertEqual(replay.identities, source.identities)
            replay.clearEmissions()
            source.reload([2, 4, 6])
            XCTAssertEqual(replay.emissions, [[0, rows, 3]])
            XCTAssertEqual(replay.identities, [2, 4, 6])
        }
    }

    func testAnInconsistentBatchIsReportedAndReloaded() {
        MainActor.assumeIsolated {
            let source = ArraySource(Array(0..<10))
            let model = ListModel(source: source)
            var reported: [ListChangeError] = []
            model.inconsistencyHandler = { reported.append($0) }
            let replay = ItemsChangedReplay(model: model)
            // The source lost a row but reports nothing about it.
            source.change(to: Array(1..<10), reporting: [.update(3, at: 3)])
            XCTAssertEqual(reported, [.countMismatch(oldCount: 10, removed: 0, inserted: 0, newCount: 9)])
            XCTAssertEqual(replay.emissions, [[0, 10, 9]])
            XCTAssertEqual(replay.identities, source.identities)
        }
    }

    func testABatchScatteredOverMoreGapsThanTheThresholdIsPublishedAsAReload() {
        MainActor.assumeIsolated {
            let source = ArraySource(Array(0..<100))
            let model = ListModel(source: source)
            model.reloadThreshold = 10
            let replay = ItemsChangedReplay(model: model)
            let everyFifth = stride(from: 0, to: 50, by: 5)
            source.change(to: (0..<100).filter { $0 % 5 != 0 || $0 >= 50 }, reporting: everyFifth.map { .delete($0, at: $0) })
            XCTAssertEqual(replay.emissions.count, 10, "ten gaps: at the threshold, still published as changes")
            replay.clearEmissions()
            let survivors = source.identities
            source.change(
                to: survivors.filter { $0 % 2 == 0 },
                reporting: survivors.enumerated().filter { $0.element % 2 != 0 }.map { .delete($0.element, at: $0.offset) })
            XCTAssertEqual(replay.emissions, [[0, 90, 45]])
            XCTAssertEqual(replay.identities, source.identities)
        }
    }

    func testUpdatedAndMovedRowsSignalTheirItemsAndNothingElse() {
        MainActor.assumeIsolated {
            let source = ArraySource(Array(0..<10))
            let model = ListModel(source: source)
            let items = (0..<10).map { model.item(at: $0)! }
            var updated: [Int] = []
            for item in items {
                let identity = model.identity(of: item)
                item.connect(.rowUpdated) { updated.append(identity) }
            }
            var positions: [Int] = []
            items[2].connect(.notify("position")) { _ in positions.append(items[2].position ?? -1) }
            let replay = ItemsChangedReplay(model: model)

            source.change(to: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], reporting: [.update(4, at: 4)])
            XCTAssertEqual(updated, [4])
            XCTAssertEqual(replay.emissions, [], "an update in place changes no items")

            source.change(to: [1, 2, 3, 0, 4, 5, 6, 7, 8, 9], reporting: [.move(0, from: 0, to: 3), .update(7, at: 7)])
            XCTAssertEqual(Set(updated), [4, 0, 7])
            XCTAssertEqual(positions, [1], "row 2 moved up once")
            XCTAssertEqual(items.map(\.position), [3, 0, 1, 2, 4, 5, 6, 7, 8, 9])
            XCTAssertEqual(model.item(at: 3)!.objectPointer, items[0].objectPointer, "a moved row keeps its item")
        }
    }

    func testItemsNobodyHoldsAreDroppedAndNothingIsMaterialized() {
        MainActor.assumeIsolated {
            let source = ArraySource(Array(0..<100_000))
            let model = ListModel(source: source)
            XCTAssertEqual(source.identityReads, 0, "creating the model reads no row")
            XCTAssertEqual(g_list_model_get_n_items(model.object.opaquePointer), 100_000)
            XCTAssertEqual(g_list_model_get_item_type(model.object.opaquePointer), gtkshim_row_item_get_type())
            do {
                let item = model.item(at: 70_000)
                XCTAssertEqual(item.map(model.identity(of:)), 70_000)
                XCTAssertEqual(model.presented.liveItemCount, 1)
            }
            XCTAssertEqual(model.presented.liveItemCount, 0, "the item was finalized and forgotten")
            XCTAssertNil(model.item(at: 100_000))

            source.change(to: [-1] + source.identities, reporting: [.insert(-1, at: 0)])
            XCTAssertEqual(source.identityReads, 2, "one read for the item, one to check the inserted row")
            XCTAssertEqual(model.presented.itemsCreated, 1)
        }
    }
}
