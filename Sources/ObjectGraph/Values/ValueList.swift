/// The values of one object (attributes, then owned foreign keys): a fixed-size, copy-on-write
/// list. It owns a buffer of its own, or one row of a buffer that the rows of one fetch share
/// (``ValueRows``).
///
/// Not `ContiguousArray`: every new `ContiguousArray<PrimitiveValue>` asked the Swift runtime for
/// its storage class's generic metadata through a locked cache, a tenth of the time spent
/// materializing a fetch. `ValueStorage` is a non-generic class, whose metadata is static.
struct ValueList: RandomAccessCollection, MutableCollection, Equatable, @unchecked Sendable {
    // Sendable as `Array` is: the storage is copied before any mutation unless uniquely referenced.
    private var storage: ValueStorage?
    /// Where the list's first value lies in `storage`.
    private var start: Int32
    private var length: Int32

    /// An empty list (the values of a fault).
    init() {
        storage = nil
        start = 0
        length = 0
    }

    /// A list of `count` values, each written once by `initialize` into uninitialized memory.
    init(count: Int, initialize: (UnsafeMutablePointer<PrimitiveValue>) -> Void) {
        start = 0
        length = Int32(count)
        guard count > 0 else {
            storage = nil
            return
        }
        let storage = ValueStorage.make(capacity: count)
        storage.withUnsafeMutablePointerToElements { initialize($0) }
        storage.header = count
        self.storage = storage
    }

    /// The row of `storage` that starts at `start`; the caller initialized its values.
    fileprivate init(rowOf storage: ValueStorage, start: Int, count: Int) {
        self.storage = storage
        self.start = Int32(start)
        length = Int32(count)
    }

    init<Values: Collection>(_ values: Values) where Values.Element == PrimitiveValue {
        var iterator = values.makeIterator()
        self.init(count: values.count) { elements in
            for index in 0..<values.count { (elements + index).initialize(to: iterator.next()!) }
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { Int(length) }

    subscript(position: Int) -> PrimitiveValue {
        get {
            precondition(position >= 0 && position < endIndex, "value index out of range")
            return storage!.withUnsafeMutablePointerToElements { $0[Int(start) + position] }
        }
        set {
            precondition(position >= 0 && position < endIndex, "value index out of range")
            if !isKnownUniquelyReferenced(&storage!) {
                storage = storage!.copy(from: Int(start), count: Int(length))
                start = 0
            }
            storage!.withUnsafeMutablePointerToElements { $0[Int(start) + position] = newValue }
        }
    }

    /// Calls `body` with the value at `position` where it lies, without copying it out (a copy
    /// of a string or data value costs a retain and a release).
    @inline(__always)
    func withValue<T>(at position: Int, _ body: (PrimitiveValue) throws -> T) rethrows -> T {
        precondition(position >= 0 && position < endIndex, "value index out of range")
        return try storage!.withUnsafeMutablePointerToElements { try body($0[Int(start) + position]) }
    }

    /// Whether the value at `position` is `.null`, read in place.
    @inline(__always)
    func isNull(at position: Int) -> Bool {
        withValue(at: position) { value in
            if case .null = value { return true }
            return false
        }
    }

    static func == (lhs: ValueList, rhs: ValueList) -> Bool {
        if lhs.storage === rhs.storage && lhs.start == rhs.start && lhs.length == rhs.length { return true }
        return lhs.elementsEqual(rhs)
    }
}

extension ValueList: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: PrimitiveValue...) {
        self.init(elements)
    }
}

/// Value lists for many rows of one entity, made in shared buffers of ``rowsPerBuffer`` rows: a
/// fetch of thousands of rows then allocates once per buffer instead of once per row (that
/// allocation was a tenth of materializing a fetch). A buffer lives as long as any list of its
/// rows; a list that is changed copies its row out first, as any shared list does.
struct ValueRows {
    /// Rows per buffer: few enough that an object kept from a large fetch keeps little memory
    /// of the others alive, enough that allocating the buffer costs next to nothing per row.
    static let rowsPerBuffer = 64

    private let valuesPerRow: Int
    private var rowsLeft: Int?
    private var storage: ValueStorage?
    /// Values the current buffer has room for.
    private var capacity = 0

    /// Lists of `valuesPerRow` values each; `expectedRows`, when known (a fetch limit, a batch of
    /// keys), keeps a small fetch from reserving a whole buffer.
    init(valuesPerRow: Int, expectedRows: Int? = nil) {
        self.valuesPerRow = valuesPerRow
        rowsLeft = expectedRows
    }

    /// The next row's list, its `valuesPerRow` values each written once by `initialize` into
    /// uninitialized memory.
    @inline(__always)
    mutating func makeList(_ initialize: (UnsafeMutablePointer<PrimitiveValue>) -> Void) -> ValueList {
        guard valuesPerRow > 0 else { return ValueList() }
        if storage == nil || storage!.header + valuesPerRow > capacity { startBuffer() }
        let storage = storage!
        let start = storage.header
        storage.withUnsafeMutablePointerToElements { initialize($0 + start) }
        // Only the rows written so far are initialized (and deinitialized with the buffer). Lists
        // of earlier rows may be read on other threads meanwhile; nothing but the deinitializer
        // reads this count.
        storage.header = start + valuesPerRow
        return ValueList(rowOf: storage, start: start, count: valuesPerRow)
    }

    private mutating func startBuffer() {
        var rows = Self.rowsPerBuffer
        if let left = rowsLeft {
            rows = Swift.max(1, Swift.min(rows, left))
            rowsLeft = left - rows
        }
        capacity = rows * valuesPerRow
        storage = ValueStorage.make(capacity: capacity)
    }
}

/// The buffer behind ``ValueList``s: the number of values initialized so far, then the values.
final class ValueStorage: ManagedBuffer<Int, PrimitiveValue> {
    /// An empty buffer with room for `capacity` values.
    static func make(capacity: Int) -> ValueStorage {
        unsafeDowncast(ValueStorage.create(minimumCapacity: capacity) { _ in 0 }, to: ValueStorage.self)
    }

    /// A buffer of its own holding `count` values from `start`.
    func copy(from start: Int, count: Int) -> ValueStorage {
        let copy = ValueStorage.make(capacity: count)
        withUnsafeMutablePointerToElements { source in
            copy.withUnsafeMutablePointerToElements { $0.initialize(from: source + start, count: count) }
        }
        copy.header = count
        return copy
    }

    deinit {
        _ = withUnsafeMutablePointers { count, elements in elements.deinitialize(count: count.pointee) }
    }
}
