import Testing

@testable import ObjectGraph
import Platform

/// The fetched-results controller's tree against a sorted array, through random inserts, removals
/// and marks, with small nodes so that splits, merges and redistribution happen often.
@Suite struct OrderStatisticTreeTests {
    /// Slots stand for their values; `value(slot)` orders them with ties broken by slot.
    private struct Model {
        var values: [UInt64: Int] = [:]
        var sorted: [UInt64] = []
        var marks: [Bool] = []

        func compare(_ lhs: UInt64, _ rhs: UInt64) -> Int {
            let left = (values[lhs]!, lhs)
            let right = (values[rhs]!, rhs)
            return left < right ? -1 : (left > right ? 1 : 0)
        }
    }

    @Test(arguments: [(4, 4), (8, 5), (128, 64)])
    func randomInsertsRemovalsAndMarksAgreeWithASortedArray(leafCapacity: Int, branchCapacity: Int) throws {
        var random = SeededGenerator(seed: UInt64(leafCapacity * 1000 + branchCapacity))
        var model = Model()
        var nextSlot: UInt64 = 0
        // Start from a bulk-built tree of sorted slots.
        for _ in 0..<300 {
            model.values[nextSlot] = Int(random.next() % 1000)
            nextSlot += 1
        }
        model.sorted = Array(0..<nextSlot).sorted { model.compare($0, $1) < 0 }
        model.marks = model.sorted.map { _ in random.next() % 3 == 0 }
        let tree = OrderStatisticTree(
            sorted: model.sorted, marks: model.marks, leafCapacity: leafCapacity, branchCapacity: branchCapacity)
        try check(tree, model)

        for step in 0..<4_000 {
            let choice = random.next() % 10
            if choice < 5 || model.sorted.count < 10 {
                let slot = nextSlot
                nextSlot += 1
                model.values[slot] = Int(random.next() % 1000)
                let index = tree.insert(slot) { model.compare($0, slot) }
                let expected = model.sorted.firstIndex { model.compare($0, slot) > 0 } ?? model.sorted.count
                #expect(index == expected, "insert at step \(step)")
                model.sorted.insert(slot, at: expected)
                model.marks.insert(false, at: expected)
            } else if choice < 9 {
                let position = Int(random.next() % UInt64(model.sorted.count))
                let slot = model.sorted[position]
                let index = tree.remove { model.compare($0, slot) }
                #expect(index == position, "remove at step \(step)")
                model.sorted.remove(at: position)
                model.marks.remove(at: position)
                #expect(tree.remove { model.compare($0, slot) } == nil, "a removed slot is gone")
            } else {
                let position = Int(random.next() % UInt64(model.sorted.count))
                let marked = random.next() % 2 == 0
                tree.setMark(marked, at: position)
                model.marks[position] = marked
            }
            if step % 97 == 0 { try check(tree, model) }
        }
        // Empty it completely, then fill it again.
        while let slot = model.sorted.first {
            #expect(tree.remove { model.compare($0, slot) } == 0)
            model.sorted.removeFirst()
            model.marks.removeFirst()
        }
        try check(tree, model)
        for slot in model.values.keys.sorted().prefix(50) {
            let index = tree.insert(slot) { model.compare($0, slot) }
            let expected = model.sorted.firstIndex { model.compare($0, slot) > 0 } ?? model.sorted.count
            model.sorted.insert(slot, at: expected)
            model.marks.insert(false, at: expected)
            #expect(index == expected)
        }
        try check(tree, model)
    }

    private func check(_ tree: OrderStatisticTree, _ model: Model, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(tree.invariantViolations() == [], sourceLocation: sourceLocation)
        try #require(tree.count == model.sorted.count, sourceLocation: sourceLocation)
        var walked: [UInt64] = []
        tree.forEachElement(in: 0..<tree.count) { walked.append($0) }
        #expect(walked == model.sorted, sourceLocation: sourceLocation)
        if model.sorted.count > 20 {
            var middle: [UInt64] = []
            tree.forEachElement(in: 7..<(model.sorted.count - 5)) { middle.append($0) }
            #expect(middle == Array(model.sorted[7..<(model.sorted.count - 5)]), sourceLocation: sourceLocation)
        }
        for (index, slot) in model.sorted.enumerated() {
            #expect(tree.element(at: index) == slot, sourceLocation: sourceLocation)
            #expect(tree.index { model.compare($0, slot) } == index, sourceLocation: sourceLocation)
            #expect(tree.isMarked(at: index) == model.marks[index], sourceLocation: sourceLocation)
        }
        var marksBefore = 0
        var markOrdinal = 0
        for index in 0...model.sorted.count {
            #expect(tree.marks(before: index) == marksBefore, sourceLocation: sourceLocation)
            if index < model.sorted.count && model.marks[index] {
                #expect(tree.indexOfMark(markOrdinal) == index, sourceLocation: sourceLocation)
                markOrdinal += 1
                marksBefore += 1
            }
        }
        #expect(tree.markCount == marksBefore, sourceLocation: sourceLocation)
        // Lower bounds by value alone (ignoring the slot tie-breaker).
        for value in stride(from: -1, through: 1001, by: 37) {
            let expected = model.sorted.firstIndex { model.values[$0]! >= value } ?? model.sorted.count
            #expect(tree.lowerBound { model.values[$0]! < value ? -1 : (model.values[$0]! > value ? 1 : 0) } == expected,
                    sourceLocation: sourceLocation)
        }
    }

    @Test func anEmptyTreeFindsNothing() {
        let tree = OrderStatisticTree(tracksMarks: true)
        #expect(tree.count == 0)
        #expect(tree.index { _ in 0 } == nil)
        #expect(tree.remove { _ in 0 } == nil)
        #expect(tree.lowerBound { _ in 0 } == 0)
        #expect(tree.marks(before: 0) == 0)
        let bulk = OrderStatisticTree(sorted: [UInt64]())
        #expect(bulk.count == 0 && bulk.invariantViolations() == [])
    }
}
