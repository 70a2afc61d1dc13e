/// The name a property wrapper gives its attribute or relationship, kept as the address of the
/// string literal: 8 bytes in every object instead of a 16-byte `String`, and looked up by address
/// in a small per-entity table instead of by hashing text on every access.
public struct PropertyKey: Hashable {
    /// The literal's address, or (for a literal Swift stores inline, as one scalar) the
    /// scalar with the top bit set, which no user-space address has.
    let bits: UInt
    private static let scalarTag: UInt = 1 << (UInt.bitWidth - 1)

    /// The key for a property name written as a string literal.
    public init(_ name: StaticString) {
        if name.hasPointerRepresentation {
            bits = UInt(bitPattern: name.utf8Start)
        } else {
            bits = UInt(name.unicodeScalar.value) | Self.scalarTag
        }
    }

    /// The name as text. Swift emits string literals with a terminating NUL.
    public var name: String {
        if bits & Self.scalarTag != 0 {
            return String(Character(Unicode.Scalar(UInt32(truncatingIfNeeded: bits & ~Self.scalarTag))!))
        }
        return String(cString: UnsafePointer<CChar>(bitPattern: bits)!)
    }
}
