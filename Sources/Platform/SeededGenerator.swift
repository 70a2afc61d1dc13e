import Foundation

/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast generator whose whole sequence follows
/// from its seed, so that a demo library is the same on every machine, a benchmark inserts the
/// same rows every run and a failing randomized test can be replayed from the seed it prints.
///
///     var random = SeededGenerator(seed: 42)
///     let position = Int.random(in: 0..<count, using: &random)
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A version-4 UUID made of the next 128 bits (each 64 in little-endian byte order, with the
    /// version and variant bits set), the same for the same seed.
    public mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (index * 8))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (index * 8))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40      // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80      // RFC 4122 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
