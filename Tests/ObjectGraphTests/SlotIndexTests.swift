import Testing

@testable import ObjectGraph
import Platform

/// The fetched-results controller's index of slots by key against a dictionary: dense runs of
/// primary keys, keys far from them, temporary keys, removals and reused slots.
@Suite struct SlotIndexTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func randomInsertsAndRemovalsAgreeWithADictionary(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // Slots 0..<1000 hold a run of primary keys with gaps, as a fetch finds them.
        var keys: [Int64] = (0..<1000).map { Int64($0 * 2 + 500) }
        var expected: [Int64: Int32] = [:]
        for (slot, key) in keys.enumerated() { expected[key] = Int32(slot) }
        var index = SlotIndex(keys: keys)
        var free: [Int32] = []
        for step in 0..<20_000 {
            switch random.next() % 4 {
            case 0, 1:
                // A key after the run (a new row), far away, temporary, or before the run.
                let key: Int64
                switch random.next() % 4 {
                case 0: key = 2_500 + Int64(random.next() % 5_000)
                case 1: key = 1_000_000 + Int64(random.next() % 1_000_000)
                case 2: key = -1 - Int64(random.next() % 500)
                default: key = 1 + Int64(random.next() % 499)
                }
                guard expected[key] == nil else { continue }
                let slot: Int32
                if let reused = free.popLast() {
                    slot = reused
                    keys[Int(slot)] = key
                } else {
                    slot = Int32(keys.count)
                    keys.append(key)
                }
                index.insert(slot, keys: keys)
                expected[key] = slot
            default:
                guard let key = expected.keys.randomElement(using: &random), let slot = expected[key] else { continue }
                index.remove(key, keys: keys)
                expected[key] = nil
                keys[Int(slot)] = 0
                free.append(slot)
            }
            if step % 500 == 0 {
                #expect(index.count == expected.count)
                for (key, slot) in expected { #expect(index.slot(for: key, keys: keys) == slot) }
                for _ in 0..<50 {
                    let key = Int64(random.next() % 3_000_000) - 1_000
                    #expect(index.slot(for: key, keys: keys) == expected[key])
                }
            }
        }
    }
}
