/// The rows of a fetched-results controller as it orders them: per slot, the row's key and its
/// sort-key values (one ``SortKeyColumn`` per sort descriptor), and the slot of each key.
///
/// A row's order is its sort keys, then its store order in the direction of the last sort key
/// (``StoreOrder``), as a fetch orders them. Rows are compared by slot, so a row being placed is
/// first given a slot of its own (which is not yet found by its key until ``index(_:)``); a row whose values change gets a new slot, and its old
/// slot keeps the values it was placed with until it is released.
final class SortKeyTable {
    /// The key of each slot; 0 for a slot that is free.
    private(set) var keys: [Int64] = []
    private(set) var columns: [SortKeyColumn]
    private var freeSlots: [Int32] = []
    private var slots = SlotIndex()

    /// Rows ``load(from:excluding:)`` reads before appending them to the table: a
    /// multiple of 64 (a word of nil bits), small enough to stay in the cache.
    static let loadChunk = 4096

    /// Whether rows with equal sort keys run in ascending store order (see ``StoreOrder``).
    let tiesAscend: Bool

    init(columns: [SortKeyColumn]) {
        precondition(!columns.isEmpty, "a controller's rows have at least one sort key")
        self.columns = columns
        tiesAscend = StoreOrder.tiesAscend(columns.lazy.map(\.ascending))
    }

    // MARK: Rows

    /// Reads every row of the statement (the key in column 0, the sort-key values after it) into
    /// slots 0, 1, ... of an empty table, in order, skipping the keys in `excluded`, and makes them
    /// found by their keys. Returns the number of rows read.
    func load(from statement: Statement, excluding excluded: Set<Int64>) throws -> Int {
        precondition(keys.isEmpty, "rows are loaded into an empty table")
        // Local copies: the loop then mutates no class property, which would check exclusive
        // access on every write.
        var keys: [Int64] = []
        var columns = self.columns
        self.columns = []
        defer {
            self.keys = keys
            self.columns = columns
            slots = SlotIndex(keys: keys)
        }
        // Rows are read into fixed buffers and appended a chunk at a time: growing the arrays row
        // by row checks their uniqueness and capacity on every value, a third of the loop's cost.
        let chunk = Self.loadChunk
        let width = columns.count
        let chunkKeys = UnsafeMutableBufferPointer<Int64>.allocate(capacity: chunk)
        let chunkWords = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: chunk * width)
        let chunkNulls = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: chunk / 64 * width)
        chunkNulls.initialize(repeating: 0)
        defer {
            chunkKeys.deallocate()
            chunkWords.deallocate()
            chunkNulls.deallocate()
        }
        let excludes = !excluded.isEmpty
        try columns.withUnsafeMutableBufferPointer { columns in
            var filled = 0
            func flush() {
                keys.append(contentsOf: chunkKeys[0..<filled])
                for column in 0..<width {
                    let start = column * chunk
                    columns[column].append(
                        words: UnsafeBufferPointer(rebasing: chunkWords[start..<(start + filled)]),
                        nullBits: UnsafeBufferPointer(rebasing: chunkNulls[(start / 64)..<((start + chunk) / 64)]))
                }
                chunkNulls.update(repeating: 0)
                filled = 0
            }
            while try statement.step() {
                let key = statement.int64(0)
                if excludes && excluded.contains(key) { continue }
                chunkKeys[filled] = key
                for column in 0..<width {
                    let place = column * chunk + filled
                    if let word = columns[column].readWord(from: statement, column: Int32(column + 1)) {
                        chunkWords[place] = word
                    } else {
                        chunkWords[place] = 0
                        chunkNulls[place >> 6] |= 1 << UInt64(place & 63)
                    }
                }
                filled += 1
                if filled == chunk { flush() }
            }
            flush()
        }
        return keys.count
    }

    /// The slot of the row with `key`, or nil.
    @inline(__always)
    func slot(forKey key: Int64) -> Int32? {
        slots.slot(for: key, keys: keys)
    }

    @inline(__always)
    func key(of slot: Int32) -> Int64 {
        keys[Int(slot)]
    }

    /// A slot holding the statement's current row: the key in column 0, the sort-key values after
    /// it. Not yet found by its key.
    @inline(__always)
    func makeSlot(from statement: Statement) -> Int32 {
        let slot = newSlot(key: statement.int64(0))
        for column in columns.indices { columns[column].set(from: statement, column: Int32(column + 1), at: Int(slot)) }
        return slot
    }

    /// A slot holding `key` and `values` (one per sort key), not yet found by its key.
    func makeSlot(key: Int64, values: [PrimitiveValue]) -> Int32 {
        let slot = newSlot(key: key)
        for column in columns.indices { columns[column].set(values[column], at: Int(slot)) }
        return slot
    }

    @inline(__always)
    private func newSlot(key: Int64) -> Int32 {
        precondition(key != 0, "0 is no object's key")
        if let slot = freeSlots.popLast() {
            keys[Int(slot)] = key
            return slot
        }
        keys.append(key)
        return Int32(keys.count - 1)
    }

    /// Makes `slot` the one found by its key (replacing the slot found before, if any).
    @inline(__always)
    func index(_ slot: Int32) {
        slots.insert(slot, keys: keys)
    }

    /// Frees `slot`, which stops being found by its key if it was.
    func release(_ slot: Int32) {
        let key = keys[Int(slot)]
        if slots.slot(for: key, keys: keys) == slot { slots.remove(key, keys: keys) }
        for column in columns.indices { columns[column].release(at: Int(slot)) }
        keys[Int(slot)] = 0
        freeSlots.append(slot)
    }

    // MARK: Order

    /// How row `lhs` orders against row `rhs`: by sort keys, then by store order. 0 only for rows
    /// with the same key and values.
    @inline(__always)
    func compare(_ lhs: Int32, _ rhs: Int32) -> Int {
        Self.compare(lhs, rhs, columns: columns, keys: keys, tiesAscend: tiesAscend)
    }

    /// Runs `body` with how the row of each entry orders against row `slot` (``compare(_:_:)``
    /// with `slot` on the right), for a walk down the controller's tree. Entries whose prefixes
    /// differ are ordered by them; only the others load values from the table. The columns and
    /// keys are taken from the table once for the walk: read at every step, each comparison paid an
    /// exclusivity check and a retain of the class's arrays, a fifth of placing one changed row
    /// among 100,000.
    @inline(__always)
    func withOrder<Result>(against slot: Int32, _ body: ((UInt64) -> Int) throws -> Result) rethrows -> Result {
        let columns = self.columns
        let keys = self.keys
        let tiesAscend = self.tiesAscend
        let prefix = columns[0].orderPrefix(at: Int(slot))
        return try body { entry in
            let entryPrefix = UInt32(truncatingIfNeeded: entry >> 32)
            if entryPrefix != prefix { return entryPrefix < prefix ? -1 : 1 }
            return Self.compare(Self.slot(of: entry), slot, columns: columns, keys: keys, tiesAscend: tiesAscend)
        }
    }

    // MARK: Entries

    /// The controller's tree holds entries, not bare slots: a row's slot in the low 32 bits and the
    /// ``SortKeyColumn/orderPrefix(at:)`` of its first sort key above it. A walk down the tree then
    /// orders most rows by the entries in its nodes. Loading each probed row's value from the
    /// table instead missed the cache at almost every step: the walks were a third of the time of
    /// merging one moved row into 100,000, and half of one deleted row.
    @inline(__always)
    func entry(of slot: Int32) -> UInt64 {
        Self.entry(of: slot, prefix: columns[0].orderPrefix(at: Int(slot)))
    }

    /// The entries of slots `0 ..< count`, in order, made as they are read (a million rows' entries
    /// in an array of their own would add 8 MB to the peak of a fetch).
    func entries(ofFirst count: Int) -> LazyMapCollection<Range<Int32>, UInt64> {
        let first = columns[0]
        return (0..<Int32(count)).lazy.map { slot in Self.entry(of: slot, prefix: first.orderPrefix(at: Int(slot))) }
    }

    /// The slot an entry holds.
    @inline(__always)
    static func slot(of entry: UInt64) -> Int32 {
        Int32(bitPattern: UInt32(truncatingIfNeeded: entry))
    }

    @inline(__always)
    private static func entry(of slot: Int32, prefix: UInt32) -> UInt64 {
        UInt64(prefix) << 32 | UInt64(UInt32(bitPattern: slot))
    }

    @inline(__always)
    private static func compare(_ lhs: Int32, _ rhs: Int32, columns: [SortKeyColumn], keys: [Int64], tiesAscend: Bool) -> Int {
        for column in columns.indices {
            let order = columns[column].compare(Int(lhs), Int(rhs))
            if order != 0 { return order }
        }
        return StoreOrder.compare(keys[Int(lhs)], keys[Int(rhs)], ascending: tiesAscend)
    }

    /// How the first sort key of row `lhs` orders against that of `rhs`: what sections group by.
    @inline(__always)
    func compareFirstKey(_ lhs: Int32, _ rhs: Int32) -> Int {
        columns[0].compare(Int(lhs), Int(rhs))
    }

    /// The value of sort key `column` of row `slot`.
    func value(of slot: Int32, column: Int) -> PrimitiveValue {
        columns[column].value(at: Int(slot))
    }
}
