/// A value bound to a statement parameter. Both engines see integers and text, so the same SQL
/// serves both (booleans are 0 and 1, times are milliseconds since 1970, tags are JSON text), and
/// bytes for blobs (SQLite `BLOB`, PostgreSQL `bytea` sent in binary format).
enum SQLValue: Sendable {
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    case null

    init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    init(_ flag: Bool) { self = .integer(flag ? 1 : 0) }
}
