import CGtk
import GtkShim
import GtkTestSupport
import XCTest

@testable import GtkKit
import Platform

final class SelectionModelTests: GtkTestCase, @unchecked Sendable {
    /// The selection as documented, kept the slow way: every selected identity, and whether it
    /// came from selecting every row (which survives a reload as "all but the rows that were
    /// not selected").
    private struct ExpectedSelection {
        var selected: Set<Int> = []
        var isSelectAll = false

        mutating func replace(with identities: some Sequence<Int>, isSelectAll: Bool = false) {
            selected = Set(identities)
            self.isSelectAll = isSelectAll
        }
    }

    /// Thousands of random steps mixing GTK's selection requests (items, ranges, all, bitsets),
    /// selections by identity, batches and reloads. After each: every position answers as the
    /// expected selection says, ranges and counts agree, a GTK-like view that only hears
    /// `items-changed` and `selection-changed` sees the same, and the writer was told of every
    /// change.
    func testRandomSelectionsAreKeptByIdentityAcrossChanges() {
        MainActor.assumeIsolated {
            var random = SeededGenerator(seed: 0x5e1ec7)
            var changes = RandomListChanges(firstNewIdentity: 10_000)
            let source = ArraySource(Array(0..<60))
            let model = ListModel(source: source)
            let selection = SelectionModel(model: model, mode: .multiple)
            let gtkSelection = selection.object.opaquePointer
            var expected = ExpectedSelection()
            var notified = false
            selection.onChanged = { notified = true }
            let view = SelectionView(selection: selection)
            var operationsSeen = Set<String>()

            for step in 0..<4_000 {
                let before = expected.selected
                notified = false
                let count = source.count
                let identities = source.identities
                func randomRange() -> Range<Int> {
                    let start = Int.random(in: 0...count, using: &random)
                    return start..<Int.random(in: start...count, using: &random)
                }
                let operation = Int.random(in: 0..<12, using: &random)
                switch operation {
                case 0 where count > 0, 1 where count > 0:
                    let position = Int.random(in: 0..<count, using: &random)
                    let unselectRest = operation == 0
                    XCTAssertTrue(gtk_selection_model_select_item(gtkSelection, guint(position), unselectRest ? 1 : 0) != 0)
                    if unselectRest { expected.replace(with: [identities[position]]) } else { expected.selected.insert(identities[position]) }
                    operationsSeen.insert("select item")
                case 2 where count > 0:
                    let position = Int.random(in: 0..<count, using: &random)
                    XCTAssertTrue(gtk_selection_model_unselect_item(gtkSelection, guint(position)) != 0)
                    expected.selected.remove(identities[position])
                    operationsSeen.insert("unselect item")
                case 3:
                    let range = step % 5 == 0 ? 0..<count : randomRange()
                    let unselectRest = Bool.random(using: &random)
                    XCTAssertTrue(
                        gtk_selection_model_select_range(gtkSelection, guint(range.lowerBound), guint(range.count), unselectRest ? 1 : 0) != 0)
                    if range == 0..<count {
                        expected.replace(with: identities, isSelectAll: true)
                    } else if unselectRest {
                        expected.replace(with: identities[range])
                    } else {
                        expected.selected.formUnion(identities[range])
                    }
                    operationsSeen.insert("select range")
                case 4:
                    let range = randomRange()
                    XCTAssertTrue(gtk_selection_model_unselect_range(gtkSelection, guint(range.lowerBound), guint(range.count)) != 0)
                    if range == 0..<count { expected.replace(with: []) } else { expected.selected.subtract(identities[range]) }
                    operationsSeen.insert("unselect range")
                case 5:
                    XCTAssertTrue(gtk_selection_model_select_all(gtkSelection) != 0)
                    expected.replace(with: identities, isSelectAll: true)
                    operationsSeen.insert("select all")
                case 6 where step % 3 == 0:
                    XCTAssertTrue(gtk_selection_model_unselect_all(gtkSelection) != 0)
                    expected.replace(with: [])
                    operationsSeen.insert("unselect all")
                case 7:
                    let chosen = (0..<count).filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                    let fullMask = Bool.random(using: &random)
                    let masked = fullMask ? Array(0..<count) : Array(randomRange())
                    let selectedBitset = Self.bitset(chosen)
                    let maskBitset = Self.bitset(masked)
                    XCTAssertTrue(gtk_selection_model_set_selection(gtkSelection, selectedBitset, maskBitset) != 0)
                    gtk_bitset_unref(selectedBitset)
                    gtk_bitset_unref(maskBitset)
                    if fullMask {
                        expected.replace(with: chosen.map { identities[$0] }, isSelectAll: count > 0 && chosen.count == count)
                    } else {
                        for position in masked {
                            if chosen.contains(position) {
                                expected.selected.insert(identities[position])
                            } else {
                                expected.selected.remove(identities[position])
                            }
                        }
                    }
                    operationsSeen.insert("set selection")
                case 8 where count > 0:
                    let identity = identities.randomElement(using: &random)!
                    let unselectRest = Bool.random(using: &random)
                    XCTAssertTrue(selection.select(identity, unselectRest: unselectRest))
                    if unselectRest { expected.replace(with: [identity]) } else { expected.selected.insert(identity) }
                    operationsSeen.insert("select identity")
                case 9 where step % 4 == 0:
                    let new = changes.reload(from: identities, using: &random)
                    expected.selected = expected.isSelectAll
                        ? Set(new).subtracting(Set(identities).subtracting(expected.selected))
                        : expected.selected.intersection(new)
                    source.reload(new)
                    operationsSeen.insert("reload")
                default:
                    let (new, batch) = changes.batch(from: identities, maxChanges: 10, using: &random)
                    for case .delete(let identity, _) in batch { expected.selected.remove(identity) }
                    source.change(to: new, reporting: batch)
                    operationsSeen.insert("batch")
                }

                let truth = source.identities.map { expected.selected.contains($0) }
                let answered = (0..<source.count).map { gtk_selection_model_is_selected(gtkSelection, guint($0)) != 0 }
                XCTAssertEqual(answered, truth, "step \(step), operation \(operation)")
                XCTAssertEqual(view.selected, truth, "step \(step), operation \(operation): GTK was not told of every change")
                XCTAssertEqual(selection.selectedCount, expected.selected.count, "step \(step)")
                XCTAssertEqual(selection.selectedIdentities(), source.identities.filter(expected.selected.contains), "step \(step)")
                let range = 0..<source.count
                let checked = step % 2 == 0 ? range : range.clamped(to: (step % 7)..<(step % 7 + 9))
                XCTAssertEqual(
                    Self.positions(in: gtk_selection_model_get_selection_in_range(gtkSelection, guint(checked.lowerBound), guint(checked.count))),
                    checked.filter { truth[$0] }, "step \(step)")
                if expected.selected != before { XCTAssertTrue(notified, "step \(step), operation \(operation): onChanged") }
                if answered != truth || view.selected != truth { return }
            }
            XCTAssertEqual(operationsSeen.count, 10, "every kind of step ran: \(operationsSeen.sorted())")
        }
    }

    /// Single selection: at most one row, kept by identity, dropped when its row leaves.
    func testSingleSelectionKeepsOneRowByIdentity() {
        MainActor.assumeIsolated {
            let source = ArraySource(Array(0..<20))
            let model = ListModel(source: source)
            let selection = SelectionModel(model: model, mode: .single)
            let gtkSelection = selection.object.opaquePointer
            let view = SelectionView(selection: selection)

            XCTAssertTrue(gtk_selection_model_select_item(gtkSelection, 4, 0) != 0)
            XCTAssertTrue(gtk_selection_model_select_item(gtkSelection, 7, 0) != 0)
            XCTAssertEqual(selection.selectedIdentities(), [7], "selecting another row replaces the selection")
            XCTAssertFalse(gtk_selection_model_select_range(gtkSelection, 0, 5, 0) != 0)
            XCTAssertTrue(gtk_selection_model_select_range(gtkSelection, 9, 1, 0) != 0)
            XCTAssertFalse(gtk_selection_model_select_all(gtkSelection) != 0)
            XCTAssertFalse(selection.selectAll())
            let all = Self.bitset(Array(0..<20))
            XCTAssertFalse(gtk_selection_model_set_selection(gtkSelection, all, all) != 0)
            gtk_bitset_unref(all)
            XCTAssertEqual(selection.selectedIdentities(), [9])

            source.change(to: [100] + Array(0..<9) + Array(10..<20) + [9], reporting: [.insert(100, at: 0), .move(9, from: 9, to: 20)])
            XCTAssertEqual(selection.selectedIdentities(), [9])
            XCTAssertTrue(gtk_selection_model_is_selected(gtkSelection, 20) != 0)
            source.reload(source.identities.reversed())
            XCTAssertTrue(gtk_selection_model_is_selected(gtkSelection, 0) != 0)
            XCTAssertEqual(view.selected, source.identities.map { $0 == 9 })
            source.change(to: Array(source.identities.dropFirst()), reporting: [.delete(9, at: 0)])
            XCTAssertEqual(selection.selectedCount, 0)
            XCTAssertEqual(selection.selection, .only([]))
        }
    }

    /// Selecting every row of a million costs no row: the selection stores the exceptions.
    func testSelectingAMillionRowsReadsNoRow() {
        MainActor.assumeIsolated {
            let source = ArraySource(Array(0..<1_000_000))
            let model = ListModel(source: source)
            let selection = SelectionModel(model: model)
            var changes: [(UInt32, UInt32)] = []
            selection.object.connect(.selectionChanged) { changes.append(($0, $1)) }
            XCTAssertTrue(selection.selectAll())
            XCTAssertTrue(gtk_selection_model_unselect_item(selection.object.opaquePointer, 500_000) != 0)
            XCTAssertEqual(selection.selectedCount, 999_999)
            XCTAssertEqual(selection.selection, .allExcept([500_000]))
            XCTAssertEqual(source.identityReads, 1, "only the unselected row was read")
            XCTAssertEqual(changes.map(\.0), [0, 500_000])
            XCTAssertEqual(changes.map(\.1), [1_000_000, 1])
            let range = gtk_selection_model_get_selection_in_range(selection.object.opaquePointer, 499_990, 20)
            XCTAssertEqual(Self.positions(in: range), (499_990..<500_010).filter { $0 != 500_000 })
        }
    }

    static func bitset(_ positions: [Int]) -> OpaquePointer {
        let bitset = gtk_bitset_new_empty()!
        for position in positions { gtk_bitset_add(bitset, guint(position)) }
        return bitset
    }

    /// The positions in a bitset, which this releases.
    static func positions(in bitset: OpaquePointer?) -> [Int] {
        guard let bitset else { return [] }
        defer { gtk_bitset_unref(bitset) }
        var positions: [Int] = []
        var iterator = GtkBitsetIter()
        var value: guint = 0
        var more = gtk_bitset_iter_init_first(&iterator, bitset, &value) != 0
        while more {
            positions.append(Int(value))
            more = gtk_bitset_iter_next(&iterator, &value) != 0
        }
        return positions
    }
}

/// What a list widget believes is selected, learnt the way GTK learns it: it asks about rows
/// as they arrive, and again only for the ranges `selection-changed` names.
@MainActor
final class SelectionView {
    private(set) var selected: [Bool]
    private let connections = SignalConnections()

    init<Source: ListSource>(selection: SelectionModel<Source>) {
        let object = selection.object
        func isSelected(_ position: Int) -> Bool {
            gtk_selection_model_is_selected(object.opaquePointer, guint(position)) != 0
        }
        selected = (0..<Int(g_list_model_get_n_items(object.opaquePointer))).map(isSelected)
        object.connect(Signal<(UInt32, UInt32, UInt32) -> Void>("items-changed")) { [unowned self] position, removed, added in
            let start = Int(position)
            selected.replaceSubrange(start..<start + Int(removed), with: (start..<start + Int(added)).map(isSelected))
        }.store(in: connections)
        object.connect(.selectionChanged) { [unowned self] position, count in
            for index in Int(position)..<Int(position + count) { selected[index] = isSelected(index) }
        }.store(in: connections)
    }
}
