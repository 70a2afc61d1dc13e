/// The slot of each row of a ``SortKeyTable`` by the row's key (primary key, or temporary key of
/// an unsaved object): an open-addressing table of slots with linear probing.
///
/// It holds only slots (4 bytes per place, at most half the places used); a probe compares the
/// key it seeks with the key the table keeps for the slot. Homes are the keys' low bits, with the
/// bits above folded in (as in ``IdentityMap``): primary keys come in dense runs, which then land
/// in distinct places.
struct SlotIndex {
    /// `slot + 1` per place; 0 marks an empty place.
    private var places: [Int32]
    private var mask: Int
    private(set) var count = 0

    /// An empty index with room for `capacity` keys before it grows.
    init(capacity: Int = 0) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        places = Array(repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: key ^ (key >> 20)) & mask
    }

    /// The slot of `key`; `keys` gives each slot's key.
    @inline(__always)
    func slot(for key: Int64, keys: [Int64]) -> Int32? {
        var place = home(of: key)
        while true {
            let entry = places[place]
            if entry == 0 { return nil }
            if keys[Int(entry - 1)] == key { return entry - 1 }
            place = (place + 1) & mask
        }
    }

    /// Records `slot` for its key (`keys[slot]`), replacing the slot recorded for that key.
    @inline(__always)
    mutating func insert(_ slot: Int32, keys: [Int64]) {
        if (count + 1) * 2 > places.count { grow(keys: keys) }
        let key = keys[Int(slot)]
        var place = home(of: key)
        while true {
            let entry = places[place]
            if entry == 0 {
                places[place] = slot + 1
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

    /// Forgets `key`, shifting later entries of its probe run back so lookups never stop early.
    mutating func remove(_ key: Int64, keys: [Int64]) {
        var place = home(of: key)
        while true {
            let entry = places[place]
            if entry == 0 { return }
            if keys[Int(entry - 1)] == key { break }
            place = (place + 1) & mask
        }
        places[place] = 0
        count -= 1
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
        count = 0
        for entry in old where entry != 0 { insert(entry - 1, keys: keys) }
    }
}
