/// A set of property positions (attributes first, then relationships), kept inline for the first
/// 64 so that tracking changes allocates nothing for ordinary entities.
struct PropertyMask: Sendable, Hashable {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    func contains(_ position: Int) -> Bool {
        if position < 64 { return low & (1 << UInt64(position)) != 0 }
        let word = position / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(position % 64)) != 0
    }

    mutating func insert(_ position: Int) {
        if position < 64 { low |= 1 << UInt64(position); return }
        let word = position / 64 - 1
        while high.count <= word { high.append(0) }
        high[word] |= 1 << UInt64(position % 64)
    }

    mutating func formUnion(_ other: PropertyMask) {
        low |= other.low
        while high.count < other.high.count { high.append(0) }
        for (index, word) in other.high.enumerated() { high[index] |= word }
    }

    /// The positions in both sets.
    func intersection(_ other: PropertyMask) -> PropertyMask {
        var result = PropertyMask()
        result.low = low & other.low
        if !high.isEmpty && !other.high.isEmpty {
            result.high = zip(high, other.high).map { $0 & $1 }
        }
        return result
    }

    mutating func removeAll() {
        low = 0
        high = []
    }

    /// The positions in the set, in increasing order.
    var positions: [Int] {
        var result: [Int] = []
        forEach { result.append($0) }
        return result
    }

    /// Calls `body` with each position in increasing order, without allocating.
    @inline(__always)
    func forEach(_ body: (Int) -> Void) {
        var bits = low
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
        for (word, value) in high.enumerated() {
            var bits = value
            while bits != 0 {
                body((word + 1) * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }
}
