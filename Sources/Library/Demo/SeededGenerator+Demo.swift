import Platform

/// The choices the demo library makes; its articles depend on their exact sequence.
extension SeededGenerator {
    /// One of `items`.
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    /// True with probability `chance`.
    mutating func chance(_ chance: Double) -> Bool { Double(next() % 1_000_000) < chance * 1_000_000 }

    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
}
