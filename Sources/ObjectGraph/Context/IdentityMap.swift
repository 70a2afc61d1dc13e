import Foundation

/// The registered objects of one entity by primary key: the context's identity map.
///
/// An open-addressing table with linear probing, indexed by the key itself. Materializing a fetch
/// looks up and inserts one object per row. `Dictionary` spent a tenth of that time hashing, and
/// any hash that scatters keys (SipHash, Fibonacci) makes each lookup a cache miss; primary keys
/// come in dense runs, which a key-as-index table keeps in neighbouring slots.
///
/// The slots come zeroed from `calloc` (an empty slot is all zero bits), made when the first
/// object arrives: a large table is then fresh pages from the kernel that are touched only where
/// objects go, where writing empty slots into an array touched every page of it (at 100,000 rows,
/// 4 MB of page faults in each new context's first fetch).
struct IdentityMap {
    fileprivate struct Slot {
        /// 0 marks an empty slot; primary keys start at 1.
        var key: Int64
        var object: ManagedObject?
    }

    /// nil until the first object is registered.
    private var table: SlotTable?
    private(set) var count = 0

    init() {}

    /// The key's own low bits, with the bits above folded in so that keys a table size apart
    /// do not all collide.
    @inline(__always)
    private static func home(of key: Int64, mask: Int) -> Int {
        Int(truncatingIfNeeded: key ^ (key >> 20)) & mask
    }

    subscript(key: Int64) -> ManagedObject? {
        get {
            guard let table else { return nil }
            let slots = table.slots
            let mask = table.capacity - 1
            var index = Self.home(of: key, mask: mask)
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
        reserveCapacity(1)
        place(object, for: key)
    }

    /// Registers the new objects of one fetch (those at `positions` of `objects`) in one go. A
    /// key that already has an object (met twice in one result, possible only in inconsistent
    /// data) keeps it: it takes the new object's place in `objects`, and the new object is
    /// returned for the caller to detach.
    mutating func register(_ objects: inout [ManagedObject], at positions: some Collection<Int>) -> [ManagedObject] {
        reserveCapacity(positions.count)
        guard let table else { return [] }
        let slots = table.slots
        let mask = table.capacity - 1
        var duplicates: [ManagedObject] = []
        for position in positions {
            let key = objects[position].key
            precondition(key > 0, "only saved rows are in the identity map")
            var index = Self.home(of: key, mask: mask)
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

    /// Puts `object` in the key's slot, replacing the key's object if it has one. The table has
    /// room (and is this map's alone).
    @inline(__always)
    private mutating func place(_ object: ManagedObject, for key: Int64) {
        let table = table!
        let slots = table.slots
        let mask = table.capacity - 1
        var index = Self.home(of: key, mask: mask)
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
        guard self[key] != nil else { return }
        makeTableUnique()
        let table = table!
        let slots = table.slots
        let mask = table.capacity - 1
        var index = Self.home(of: key, mask: mask)
        while slots[index].key != key { index = (index + 1) & mask }
        slots[index] = Slot(key: 0, object: nil)
        count -= 1
        var hole = index
        var next = (index + 1) & mask
        while slots[next].key != 0 {
            let home = Self.home(of: slots[next].key, mask: mask)
            // Move the entry into the hole unless its home lies cyclically after the hole.
            if (hole - home) & mask < (next - home) & mask {
                swap(&slots[hole], &slots[next])
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    /// Makes room for `additional` more objects without growing on the way.
    mutating func reserveCapacity(_ additional: Int) {
        let capacity = table?.capacity ?? 0
        var size = Swift.max(capacity, 16)
        while (count + additional) * 2 > size { size *= 2 }
        if size > capacity {
            resize(to: size)
        } else {
            makeTableUnique()
        }
    }

    /// A copy of the map (a `for map in registered` loop's, say) shares the table until one of
    /// them changes.
    @inline(__always)
    private mutating func makeTableUnique() {
        guard table != nil, !isKnownUniquelyReferenced(&table!) else { return }
        resize(to: table!.capacity)
    }

    private mutating func resize(to size: Int) {
        var previous = table
        table = SlotTable(capacity: size)
        count = 0
        guard previous != nil else { return }
        // A table another copy of the map still uses keeps its objects; otherwise moving each
        // reference out avoids a retain here and a release when the old table goes.
        let shared = !isKnownUniquelyReferenced(&previous!)
        let old = previous!
        for index in 0..<old.capacity where old.slots[index].key != 0 {
            let object = shared ? old.slots[index].object! : old.slots[index].object.take()!
            place(object, for: old.slots[index].key)
        }
    }

    /// Every registered object.
    var values: [ManagedObject] {
        guard let table else { return [] }
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        for index in 0..<table.capacity {
            if let object = table.slots[index].object { objects.append(object) }
        }
        return objects
    }

    /// Drops the objects that only the map references, which can therefore have no changes, no
    /// related object and no caller holding them: what a weakly held identity map would have
    /// forgotten. Returns how many were dropped.
    @discardableResult
    mutating func removeUnreferenced() -> Int {
        guard table != nil else { return 0 }
        makeTableUnique()
        let table = table!
        var survivors: [(key: Int64, object: ManagedObject)] = []
        survivors.reserveCapacity(count)
        for index in 0..<table.capacity where table.slots[index].key != 0 {
            if !isKnownUniquelyReferenced(&table.slots[index].object!) {
                survivors.append((table.slots[index].key, table.slots[index].object!))
            }
        }
        let removed = count - survivors.count
        guard removed > 0 else { return 0 }
        var size = 16
        while survivors.count * 2 > size { size *= 2 }
        self.table = SlotTable(capacity: size)
        count = 0
        for survivor in survivors { place(survivor.object, for: survivor.key) }
        return removed
    }
}

/// The slots of an ``IdentityMap``, zeroed by `calloc`.
private final class SlotTable {
    let slots: UnsafeMutablePointer<IdentityMap.Slot>
    /// A power of two.
    let capacity: Int

    init(capacity: Int) {
        guard let memory = calloc(capacity, MemoryLayout<IdentityMap.Slot>.stride) else {
            fatalError("ObjectGraph could not allocate an identity map of \(capacity) slots")
        }
        // All zero bits are a valid empty slot (key 0, no object), so the memory is initialized.
        slots = memory.bindMemory(to: IdentityMap.Slot.self, capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        slots.deinitialize(count: capacity)
        free(slots)
    }
}
