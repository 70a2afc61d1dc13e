import CSQLite
import Foundation

/// The values of one sort key for every row of a ``SortKeyTable``, kept compactly so that ordering
/// rows never loads an object: one 64-bit word per row (an integer, a double's bits, or the offset
/// and length of bytes in a shared arena), plus a bit per row for nil.
///
/// Values compare as SQLite orders the key's column (see `QueryBuilder.orderTerm`): integers and
/// booleans as integers, doubles, dates and decimals as REAL, strings by UTF-8 bytes or through the
/// collation of their ``StringOrder``, other text and blobs by bytes; nil first, all of it reversed
/// for a descending key.
struct SortKeyColumn {
    enum Kind {
        case integer
        case real
        /// Strings of a `.string` attribute, ordered by the column's ``StringOrder``.
        case text
        /// Text of other attributes (URLs, JSON) and blobs, ordered by bytes.
        case bytes
    }

    let kind: Kind
    let type: AttributeType
    let ascending: Bool
    let order: StringOrder
    /// One word per slot: `Int64` bits, `Double` bits, or `offset << 32 | length` into `arena`.
    private var words: [UInt64] = []
    /// One bit per slot, set for nil.
    private var nulls: [UInt64] = []
    /// The bytes of text and blob values.
    private var arena: [UInt8] = []
    /// Bytes of `arena` no slot refers to any more.
    private var garbage = 0

    init(type: AttributeType, ascending: Bool, order: StringOrder) {
        self.type = type
        self.ascending = ascending
        switch type {
        case .integer16, .integer32, .integer64, .boolean: kind = .integer
        case .double, .date, .decimal: kind = .real
        case .string: kind = .text
        case .uri, .json, .uuid, .binaryData: kind = .bytes
        }
        // SQL applies a collation to `.string` attributes only.
        self.order = kind == .text ? order : .binary
    }

    /// The SQL that selects the column's value for a key path's SQL: decimals are ordered by their
    /// REAL value, so they are read as one.
    func selectExpression(_ sql: String) -> String {
        type == .decimal ? "CAST(\(sql) AS REAL)" : sql
    }

    // MARK: Writing

    /// The word of `column` of the row under the statement's cursor, nil for NULL; text and
    /// blob bytes go to the arena. The loop of a fetch: ``append(words:nullBits:)`` takes the
    /// words a chunk of rows at a time.
    ///
    /// The value is read first and its type asked only when it could be NULL's (0, or no bytes):
    /// one `sqlite3_column_*` call a value instead of two, in the loop that makes most of a
    /// fetch's cost beyond SQLite's own.
    @inline(__always)
    mutating func readWord(from statement: Statement, column: Int32) -> UInt64? {
        let handle = statement.handle
        let word: UInt64
        switch kind {
        case .integer:
            word = UInt64(bitPattern: sqlite3_column_int64(handle, column))
        case .real:
            word = sqlite3_column_double(handle, column).bitPattern
        case .text:
            // Only NULL gives no pointer (empty text gives ""; running out of memory fails the
            // next step, which the fetch reports).
            guard let bytes = sqlite3_column_text(handle, column) else { return nil }
            return store(UnsafeRawPointer(bytes), count: Int(sqlite3_column_bytes(handle, column)))
        case .bytes:
            // An empty blob has no pointer either: only NULL is NULL.
            let bytes = sqlite3_column_blob(handle, column)
            if bytes == nil && sqlite3_column_type(handle, column) == SQLITE_NULL { return nil }
            return store(bytes, count: Int(sqlite3_column_bytes(handle, column)))
        }
        if word == 0 && sqlite3_column_type(handle, column) == SQLITE_NULL { return nil }
        return word
    }

    /// Appends the words of new slots, with one bit per word in `nullBits` set for nil. The
    /// column's slots so far fill whole 64-bit words of nil bits (all but the last chunk have a
    /// multiple of 64 rows).
    mutating func append(words chunk: UnsafeBufferPointer<UInt64>, nullBits: UnsafeBufferPointer<UInt64>) {
        precondition(words.count & 63 == 0, "chunks of rows start at a multiple of 64")
        words.append(contentsOf: chunk)
        nulls.append(contentsOf: nullBits[0..<((chunk.count + 63) >> 6)])
    }

    /// Sets the value of `slot` (the next new slot, or a released one) from `column` of the row
    /// under the statement's cursor.
    @inline(__always)
    mutating func set(from statement: Statement, column: Int32, at slot: Int) {
        prepare(slot)
        let handle = statement.handle
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return }
        switch kind {
        case .integer:
            words[slot] = UInt64(bitPattern: sqlite3_column_int64(handle, column))
        case .real:
            words[slot] = sqlite3_column_double(handle, column).bitPattern
        case .text:
            let bytes = sqlite3_column_text(handle, column)
            words[slot] = store(UnsafeRawPointer(bytes), count: Int(sqlite3_column_bytes(handle, column)))
        case .bytes:
            let bytes = sqlite3_column_blob(handle, column)
            words[slot] = store(bytes, count: Int(sqlite3_column_bytes(handle, column)))
        }
        setNull(false, at: slot)
    }

    /// Sets the value of `slot` (the next new slot, or a released one) from an object's value.
    mutating func set(_ value: PrimitiveValue, at slot: Int) {
        prepare(slot)
        guard let word = word(for: value) else { return }
        words[slot] = word
        setNull(false, at: slot)
    }

    /// Makes `slot` (the next new slot, or a released one) hold nil.
    @inline(__always)
    private mutating func prepare(_ slot: Int) {
        precondition(slot <= words.count, "slot \(slot) skips slots")
        if slot == words.count {
            words.append(0)
            setNull(true, at: slot)
        } else {
            release(at: slot)
        }
    }

    /// Forgets the value of `slot`; its bytes become garbage, collected once they are most of the arena.
    mutating func release(at slot: Int) {
        let hadBytes = (kind == .text || kind == .bytes) && !isNull(slot)
        if hadBytes { garbage += Int(words[slot] & 0xFFFF_FFFF) }
        words[slot] = 0
        setNull(true, at: slot)
        if hadBytes && garbage > 1 << 16 && garbage * 2 > arena.count { compact() }
    }

    private mutating func word(for value: PrimitiveValue) -> UInt64? {
        switch (kind, value.asStored) {
        case (_, .null): return nil
        case (.integer, .integer(let number)): return UInt64(bitPattern: number)
        case (.integer, .bool(let flag)): return flag ? 1 : 0
        case (.real, .double(let number)): return number.bitPattern
        case (.real, .integer(let number)): return Double(number).bitPattern
        case (.real, .date(let date)): return date.timeIntervalSince1970.bitPattern
        case (.real, .decimal(let number)):
            // As SQLite's CAST of the stored text.
            return (Double(DecimalText.canonical(number)) ?? NSDecimalNumber(decimal: number).doubleValue).bitPattern
        case (.text, .string(let text)), (.bytes, .string(let text)):
            var text = text
            return text.withUTF8 { store(UnsafeRawPointer($0.baseAddress), count: $0.count) }
        case (.bytes, .url(let url)):
            var text = url.absoluteString
            return text.withUTF8 { store(UnsafeRawPointer($0.baseAddress), count: $0.count) }
        case (.bytes, .uuid(let uuid)):
            return withUnsafeBytes(of: uuid.uuid) { store($0.baseAddress, count: 16) }
        case (.bytes, .data(let data)):
            return data.withUnsafeBytes { store($0.baseAddress, count: $0.count) }
        default:
            preconditionFailure("a \(value.kindName) value for a \(type.rawValue) sort key")
        }
    }

    /// Appends bytes to the arena and returns their word.
    private mutating func store(_ bytes: UnsafeRawPointer?, count: Int) -> UInt64 {
        precondition(arena.count + count <= Int(UInt32.max), "sort keys exceed 4 GB")
        let offset = arena.count
        if let bytes, count > 0 {
            arena.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        return UInt64(offset) << 32 | UInt64(count)
    }

    /// Copies the bytes every slot refers to into a new arena.
    private mutating func compact() {
        var compacted: [UInt8] = []
        compacted.reserveCapacity(arena.count - garbage)
        for slot in words.indices where !isNull(slot) {
            let (offset, count) = Self.span(words[slot])
            words[slot] = UInt64(compacted.count) << 32 | UInt64(count)
            compacted.append(contentsOf: arena[offset..<(offset + count)])
        }
        arena = compacted
        garbage = 0
    }

    @inline(__always)
    private mutating func setNull(_ isNull: Bool, at slot: Int) {
        let word = slot >> 6
        while nulls.count <= word { nulls.append(0) }
        if isNull { nulls[word] |= 1 << UInt64(slot & 63) } else { nulls[word] &= ~(1 << UInt64(slot & 63)) }
    }

    // MARK: Reading

    @inline(__always)
    func isNull(_ slot: Int) -> Bool {
        nulls[slot >> 6] & (1 << UInt64(slot & 63)) != 0
    }

    @inline(__always)
    private static func span(_ word: UInt64) -> (offset: Int, count: Int) {
        (Int(word >> 32), Int(word & 0xFFFF_FFFF))
    }

    /// The value of `slot`, as an object of the key's attribute type holds it (a decimal as the
    /// double it is ordered by).
    func value(at slot: Int) -> PrimitiveValue {
        if isNull(slot) { return .null }
        let word = words[slot]
        switch type {
        case .integer16, .integer32, .integer64: return .integer(Int64(bitPattern: word))
        case .boolean: return .bool(word != 0)
        case .double: return .double(Double(bitPattern: word))
        case .decimal: return .decimal(Decimal(Double(bitPattern: word)))
        case .date: return .date(Date(timeIntervalSince1970: Double(bitPattern: word)))
        case .string, .json: return .string(text(word))
        case .uri: return URL(string: text(word)).map(PrimitiveValue.url) ?? .string(text(word))
        case .uuid:
            let (offset, _) = Self.span(word)
            return arena.withUnsafeBytes { .uuid(UUID(uuid: $0.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))) }
        case .binaryData:
            let (offset, count) = Self.span(word)
            return .data(Data(arena[offset..<(offset + count)]))
        }
    }

    private func text(_ word: UInt64) -> String {
        let (offset, count) = Self.span(word)
        return arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<(offset + count)]), as: UTF8.self) }
    }

    /// 32 bits that order the value of `slot` in the key's direction, as far as they can: of two
    /// rows whose prefixes differ, the one with the smaller prefix comes first, so that a walk down
    /// the controller's tree orders most rows by their prefixes alone. Numbers give the high bits
    /// of an order-preserving word (integers clamped to 32 bits, nil below every value); text and
    /// bytes, which a collation may order, give 0, leaving each comparison to the values.
    @inline(__always)
    func orderPrefix(at slot: Int) -> UInt32 {
        let prefix: UInt32
        if isNull(slot) {
            prefix = 0
        } else {
            let word = words[slot]
            switch kind {
            case .integer:
                prefix = UInt32(bitPattern: Int32(clamping: Int64(bitPattern: word))) ^ 0x8000_0000
            case .real:
                // -0 is equal to 0 (as REAL in SQLite), so it takes 0's bits. Negative numbers'
                // bits are inverted and positive numbers' sign bit set: the words then order as
                // the numbers do.
                let bits = Double(bitPattern: word) == 0 ? 0 : word
                let ordered = bits >> 63 == 1 ? ~bits : bits | 1 << 63
                prefix = UInt32(truncatingIfNeeded: ordered >> 32)
            case .text, .bytes:
                return 0
            }
        }
        return ascending ? prefix : ~prefix
    }

    /// How the value of slot `lhs` orders against that of `rhs` in the key's direction.
    @inline(__always)
    func compare(_ lhs: Int, _ rhs: Int) -> Int {
        let order = ascendingOrder(lhs, rhs)
        return ascending ? order : -order
    }

    @inline(__always)
    private func ascendingOrder(_ lhs: Int, _ rhs: Int) -> Int {
        let lhsNull = isNull(lhs)
        let rhsNull = isNull(rhs)
        if lhsNull || rhsNull { return lhsNull == rhsNull ? 0 : (lhsNull ? -1 : 1) }
        let left = words[lhs]
        let right = words[rhs]
        switch kind {
        case .integer:
            return Self.sign(Int64(bitPattern: left), Int64(bitPattern: right))
        case .real:
            return Self.sign(Double(bitPattern: left), Double(bitPattern: right))
        case .text where order != .binary:
            return StringMatching.compare(text(left), text(right), order)
        case .text, .bytes:
            let (leftOffset, leftCount) = Self.span(left)
            let (rightOffset, rightCount) = Self.span(right)
            return arena.withUnsafeBytes { bytes in
                let common = min(leftCount, rightCount)
                if common > 0 {
                    let result = memcmp(bytes.baseAddress! + leftOffset, bytes.baseAddress! + rightOffset, common)
                    if result != 0 { return result < 0 ? -1 : 1 }
                }
                return Self.sign(leftCount, rightCount)
            }
        }
    }

    @inline(__always)
    private static func sign<T: Comparable>(_ lhs: T, _ rhs: T) -> Int {
        lhs < rhs ? -1 : (lhs > rhs ? 1 : 0)
    }
}
