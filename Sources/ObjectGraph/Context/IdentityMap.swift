/// The registered objects of one entity by primary key: the context's identity map.
///
/// An open-addressing table with linear probing, indexed by the key itself. Materializing a fetch
/// looks up and inserts one object per row. `Dictionary` spent a tenth of that time hashing, and
/// any hash that scatters keys (SipHash, Fibonacci) makes each lookup a cache miss; primary keys
/// come in dense runs, which a key-as-index table keeps in neighbouring slots.
struct IdentityMap {
    private struct Slot {
        /// 0 marks an empty slot; primary keys start at 1.
        var key: Int64
        var object: ManagedObject?
    }

    private var slots: [Slot]
    private var mask: Int
    private(set) var count = 0

    init() {
        slots = Array(repeating: Slot(key: 0, object: nil), count: 16)
        mask = 15
    }

    /// The key's own low bits, with the bits above folded in so that keys a table size apart
    /// do not all collide.
    @inline(__always)
    private func home(of key: Int64) -> Int {
        Int(truncatingIfNeeded: key ^ (key >> 20)) & mask
    }

    subscript(key: Int64) -> ManagedObject? {
        get {
            var index = home(of: key)
            while true {
                let found = slots[index].key
                if found == key { return slots[index].object }
                if found == 0 { return nil }
                index = (index + 1) & mask
            }
        }
        set {
            if let newValue { insert(newValue, for: key) } else { remove(key) }
        }
    }

    mutating func insert(_ object: ManagedObject, for key: Int64) {
        precondition(key > 0, "only saved rows are in the identity map")
        if (count + 1) * 2 > slots.count { resize(to: slots.count * 2) }
        place(object, for: key)
    }

    /// Registers the new objects of one fetch (those at `positions` of `objects`) in one go. A
    /// key that already has an object (met twice in one result, possible only in inconsistent
    /// data) keeps it: it takes the new object's place in `objects`, and the new object is
    /// returned for the caller to detach.
    mutating func register(_ objects: inout [ManagedObject], at positions: some Collection<Int>) -> [ManagedObject] {
        reserveCapacity(positions.count)
        var duplicates: [ManagedObject] = []
        for position in positions {
            let key = objects[position].key
            precondition(key > 0, "only saved rows are in the identity map")
            var index = home(of: key)
            while true {
                let found = slots[index].key
                if found == 0 {
                    slots[index] = Slot(key: key, object: objects[position])
                    count += 1
                    break
                }
                if found == key {
                    duplicates.append(objects[position])
                    objects[position] = slots[index].object!
                    break
                }
                index = (index + 1) & mask
            }
        }
        return duplicates
    }

    /// Puts `object` in the key's slot, replacing the key's object if it has one.
    @inline(__always)
    private mutating func place(_ object: ManagedObject, for key: Int64) {
        var index = home(of: key)
        while true {
            let found = slots[index].key
            if found == key {
                slots[index].object = object
                return
            }
            if found == 0 {
                slots[index] = Slot(key: key, object: object)
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Removes a key, shifting later entries of its probe run back so lookups never stop early.
    mutating func remove(_ key: Int64) {
        var index = home(of: key)
        while slots[index].key != key {
            if slots[index].key == 0 { return }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: 0, object: nil)
        count -= 1
        var hole = index
        var next = (index + 1) & mask
        while slots[next].key != 0 {
            let home = home(of: slots[next].key)
            // Move the entry into the hole unless its home lies cyclically after the hole.
            if (hole - home) & mask < (next - home) & mask {
                slots.swapAt(hole, next)
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    /// Makes room for `additional` more objects without growing on the way.
    mutating func reserveCapacity(_ additional: Int) {
        var size = slots.count
        while (count + additional) * 2 > size { size *= 2 }
        if size > slots.count { resize(to: size) }
    }

    private mutating func resize(to size: Int) {
        var old = slots
        slots = Array(repeating: Slot(key: 0, object: nil), count: size)
        mask = size - 1
        count = 0
        for index in old.indices where old[index].key != 0 {
            // Moving the reference out avoids a retain here and a release when `old` goes.
            place(old[index].object.take()!, for: old[index].key)
        }
    }

    /// Every registered object.
    var values: [ManagedObject] {
        slots.compactMap(\.object)
    }

    /// Drops the objects that only the map references, which can therefore have no changes, no
    /// related object and no caller holding them: what a weakly held identity map would have
    /// forgotten. Returns how many were dropped.
    @discardableResult
    mutating func removeUnreferenced() -> Int {
        var survivors: [Slot] = []
        survivors.reserveCapacity(count)
        for index in slots.indices where slots[index].key != 0 {
            if !isKnownUniquelyReferenced(&slots[index].object!) { survivors.append(slots[index]) }
        }
        let removed = count - survivors.count
        guard removed > 0 else { return 0 }
        var size = 16
        while survivors.count * 2 > size { size *= 2 }
        slots = Array(repeating: Slot(key: 0, object: nil), count: size)
        mask = size - 1
        count = 0
        for survivor in survivors { place(survivor.object!, for: survivor.key) }
        return removed
    }
}
