/// The name a property wrapper gives its attribute or relationship, kept as the address of the
/// string literal: 8 bytes in every object instead of a 16-byte `String`, and looked up by address
/// in a small per-entity table instead of by hashing text on every access.
///
/// The initializer is inlinable, as are the property wrappers' that call it: every object of a
/// model class initializes one key per declared property, in the model's module, and a call into
/// ObjectGraph for each cost about 45 instructions where the inlined key is the literal's address,
/// known when the model compiles (a materialized fetch of 20,000 rows of five properties: 91.7 M
/// instructions against 90.0 M, callgrind).
public struct PropertyKey: Hashable {
    /// The literal's address, or (for a literal Swift stores inline, as one scalar) the
    /// scalar with the top bit set, which no user-space address has.
    @usableFromInline let bits: UInt
    @usableFromInline static let scalarTag: UInt = 1 << (UInt.bitWidth - 1)

    /// The key for a property name written as a string literal.
    @inlinable
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
