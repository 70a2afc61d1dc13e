/// The slot of each row of a ``SortKeyTable`` by the row's key (primary key, or temporary key of
/// an unsaved object).
///
/// Primary keys are handed out in increasing order and never reused, so the keys of a fetch's
/// results mostly fill a range densely: those are kept in a table indexed by `key - base` (4 bytes
/// a key, one memory access a lookup). Keys outside that range (temporary keys, keys far from the
/// others) go to an open-addressing table of slots with linear probing, which compares the key it
/// seeks with the key the ``SortKeyTable`` keeps for a slot.
struct SlotIndex {
    /// The first key of the dense range.
    private var base: Int64 = 1
    /// `slot + 1` for the keys `base ..< base + dense.count`; 0 for none.
    private var dense: [Int32] = []
    /// `slot + 1` per place for the other keys; 0 marks an empty place.
    private var places: [Int32]
    private var mask: Int
    private var placed = 0
    /// The number of keys.
    private(set) var count = 0

    /// An empty index.
    init() {
        places = Array(repeating: 0, count: 16)
        mask = 15
    }

    /// The index of `keys`, each key at its position (`keys[slot]`; 0 for a free slot).
    init(keys: [Int64]) {
        self.init()
        var low = Int64.max
        var high = Int64.min
        var positive = 0
        for key in keys where key > 0 {
            low = min(low, key)
            high = max(high, key)
            positive += 1
        }
        if positive > 0, high - low < Self.denseLimit(for: positive) {
            base = low
            dense = Array(repeating: 0, count: Int(high - low + 1))
        }
        var size = 16
        while size < (keys.count - positive) * 2 { size *= 2 }
        places = Array(repeating: 0, count: size)
        mask = size - 1
        var others: [Int32] = []
        let base = base
        var dense = self.dense
        self.dense = []
        var free = 0
        dense.withUnsafeMutableBufferPointer { dense in
            keys.withUnsafeBufferPointer { keys in
                // Unchecked arithmetic: slots fit in Int32 (a table's slots are Int32) and the
                // unsigned comparison keeps offsets inside the dense table.
                let denseCount = UInt64(dense.count)
                for slot in 0..<keys.count {
                    let key = keys[slot]
                    if key == 0 {
                        free &+= 1
                        continue
                    }
                    let offset = UInt64(bitPattern: key &- base)
                    if offset < denseCount {
                        dense[Int(truncatingIfNeeded: offset)] = Int32(truncatingIfNeeded: slot) &+ 1
                    } else {
                        others.append(Int32(truncatingIfNeeded: slot))
                    }
                }
            }
        }
        self.dense = dense
        count = keys.count - others.count - free
        for slot in others { insert(slot, keys: keys) }
    }

    /// The largest range of keys the dense table covers for `count` keys: four places a key at
    /// most (beyond a small allowance), so sparse keys cannot make it large.
    private static func denseLimit(for count: Int) -> Int64 {
        Int64(count) * 4 + 4096
    }

    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: key ^ (key >> 20)) & mask
    }

    /// The slot of `key`; `keys` gives each slot's key.
    @inline(__always)
    func slot(for key: Int64, keys: [Int64]) -> Int32? {
        let offset = key &- base
        if offset >= 0 && offset < Int64(dense.count) {
            let entry = dense[Int(offset)]
            return entry == 0 ? nil : entry - 1
        }
        var place = home(of: key)
        while true {
            let entry = places[place]
            if entry == 0 { return nil }
            if keys[Int(entry - 1)] == key { return entry - 1 }
            place = (place + 1) & mask
        }
    }

    /// Records `slot` for its key (`keys[slot]`), replacing the slot recorded for that key.
    mutating func insert(_ slot: Int32, keys: [Int64]) {
        let key = keys[Int(slot)]
        var offset = key &- base
        if offset >= Int64(dense.count), !dense.isEmpty, offset < Self.denseLimit(for: count + 1), self.slot(for: key, keys: keys) == nil {
            // A new key after the dense range (a row saved since the fetch): extend the range,
            // doubling, while it stays dense.
            let size = min(max(Int(offset) + 1, dense.count * 2), Int(Self.denseLimit(for: count + 1)))
            dense.append(contentsOf: repeatElement(0, count: size - dense.count))
            offset = key &- base
        }
        if offset >= 0 && offset < Int64(dense.count) {
            if dense[Int(offset)] == 0 { count += 1 }
            dense[Int(offset)] = slot + 1
            return
        }
        if (placed + 1) * 2 > places.count { grow(keys: keys) }
        var place = home(of: key)
        while true {
            let entry = places[place]
            if entry == 0 {
                places[place] = slot + 1
                placed += 1
                count += 1
                return
            }
            if keys[Int(entry - 1)] == key {
                places[place] = slot + 1
                return
            }
            place = (place + 1) & mask
        }
    }

    /// Forgets `key`.
    mutating func remove(_ key: Int64, keys: [Int64]) {
        let offset = key &- base
        if offset >= 0 && offset < Int64(dense.count) {
            if dense[Int(offset)] != 0 { count -= 1 }
            dense[Int(offset)] = 0
            return
        }
        var place = home(of: key)
        while true {
            let entry = places[place]
            if entry == 0 { return }
            if keys[Int(entry - 1)] == key { break }
            place = (place + 1) & mask
        }
        places[place] = 0
        placed -= 1
        count -= 1
        // Shift later entries of the probe run back, so that lookups never stop early.
        var hole = place
        var next = (place + 1) & mask
        while places[next] != 0 {
            let home = home(of: keys[Int(places[next] - 1)])
            // Move the entry into the hole unless its home lies cyclically after the hole.
            if (hole - home) & mask < (next - home) & mask {
                places.swapAt(hole, next)
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    private mutating func grow(keys: [Int64]) {
        let old = places
        places = Array(repeating: 0, count: old.count * 2)
        mask = places.count - 1
        count -= placed
        placed = 0
        for entry in old where entry != 0 { insert(entry - 1, keys: keys) }
    }
}
