/// The values of one object (attributes, then owned foreign keys): a fixed-size, copy-on-write
/// list in a single allocation.
///
/// Not `ContiguousArray`: every new `ContiguousArray<PrimitiveValue>` asked the Swift runtime for
/// its storage class's generic metadata through a locked cache, a tenth of the time spent
/// materializing a fetch. `ValueStorage` is a non-generic class, whose metadata is static.
struct ValueList: RandomAccessCollection, MutableCollection, Equatable, @unchecked Sendable {
    // Sendable as `Array` is: the storage is copied before any mutation unless uniquely referenced.
    private var storage: ValueStorage?

    /// An empty list (the values of a fault).
    init() {
        storage = nil
    }

    /// A list of `count` values, each written once by `initialize` into uninitialized memory.
    init(count: Int, initialize: (UnsafeMutablePointer<PrimitiveValue>) -> Void) {
        guard count > 0 else {
            storage = nil
            return
        }
        let storage = unsafeDowncast(ValueStorage.create(minimumCapacity: count) { _ in count }, to: ValueStorage.self)
        storage.withUnsafeMutablePointerToElements { initialize($0) }
        self.storage = storage
    }

    init<Values: Collection>(_ values: Values) where Values.Element == PrimitiveValue {
        var iterator = values.makeIterator()
        self.init(count: values.count) { elements in
            for index in 0..<values.count { (elements + index).initialize(to: iterator.next()!) }
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage?.count ?? 0 }

    subscript(position: Int) -> PrimitiveValue {
        get {
            precondition(position >= 0 && position < endIndex, "value index out of range")
            return storage!.withUnsafeMutablePointerToElements { $0[position] }
        }
        set {
            precondition(position >= 0 && position < endIndex, "value index out of range")
            if !isKnownUniquelyReferenced(&storage!) { storage = storage!.copy() }
            storage!.withUnsafeMutablePointerToElements { $0[position] = newValue }
        }
    }

    /// Calls `body` with the value at `position` where it lies, without copying it out (a copy
    /// of a string or data value costs a retain and a release).
    @inline(__always)
    func withValue<T>(at position: Int, _ body: (PrimitiveValue) throws -> T) rethrows -> T {
        precondition(position >= 0 && position < endIndex, "value index out of range")
        return try storage!.withUnsafeMutablePointerToElements { try body($0[position]) }
    }

    /// Calls `body` with the values where they lie (a row's values bound without copies, say).
    @inline(__always)
    func withUnsafeBufferPointer<T>(_ body: (UnsafeBufferPointer<PrimitiveValue>) throws -> T) rethrows -> T {
        guard let storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try storage.withUnsafeMutablePointers { count, elements in
            try body(UnsafeBufferPointer(start: elements, count: count.pointee))
        }
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
        if lhs.storage === rhs.storage { return true }
        return lhs.elementsEqual(rhs)
    }
}

extension ValueList: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: PrimitiveValue...) {
        self.init(elements)
    }
}

/// The single allocation behind a ``ValueList``: the count, then the values.
final class ValueStorage: ManagedBuffer<Int, PrimitiveValue> {
    /// The number of values, read through the header's pointer: a read of `header`, a stored
    /// property of the standard library's class, is checked for exclusive access at run time,
    /// and setting an attribute read it three times (its bounds checks).
    @inline(__always)
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

    func copy() -> ValueStorage {
        let count = self.count
        let copy = unsafeDowncast(ValueStorage.create(minimumCapacity: count) { _ in count }, to: ValueStorage.self)
        withUnsafeMutablePointerToElements { source in
            copy.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: count) }
        }
        return copy
    }

    deinit {
        _ = withUnsafeMutablePointers { count, elements in elements.deinitialize(count: count.pointee) }
    }
}
