import CSQLite
import Foundation

/// `SQLITE_TRANSIENT`, which does not import: SQLite copies the bound bytes.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement, reused through the connection's cache. Parameters are bound and columns
/// read by index; nothing here looks anything up by name.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let connection: SQLiteConnection
    /// Whether the statement is between its first step and its reset (so a nested use of the same
    /// SQL gets a statement of its own).
    private(set) var isActive = false
    /// A failed bind (a value too big, say), reported by the next `step()` so that no bind result is ignored.
    private var bindFailure: Int32 = SQLITE_OK
    /// The bytes of each UUID `withBound` binds, a slot per parameter (made on first use): SQLite
    /// reads them where they lie, as it reads texts, until the step, and the slots live as long as
    /// the statement and its bindings do.
    private var uuidSlots: UnsafeMutablePointer<uuid_t>?
    private var uuidSlotCount = 0

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
        uuidSlots?.deallocate()
    }

    /// The slot for the UUID bound to `parameter`; nil for a parameter the statement does not have
    /// (whose bind then fails as SQLite says).
    @inline(__always)
    private func uuidSlot(_ parameter: Int32) -> UnsafeMutablePointer<uuid_t>? {
        if uuidSlots == nil {
            uuidSlotCount = Int(sqlite3_bind_parameter_count(handle))
            uuidSlots = .allocate(capacity: max(uuidSlotCount, 1))
        }
        guard parameter >= 1 && Int(parameter) <= uuidSlotCount else { return nil }
        return uuidSlots! + Int(parameter - 1)
    }

    // MARK: Binding (1-based, as in SQLite)

    func bind(_ value: PrimitiveValue, at index: Int32) {
        switch value {
        case .null: check(sqlite3_bind_null(handle, index))
        case .string(let text): bind(text, at: index)
        case .integer(let number): check(sqlite3_bind_int64(handle, index, number))
        case .double(let number): check(sqlite3_bind_double(handle, index, number))
        case .decimal(let number): bind(DecimalText.canonical(number), at: index)
        case .bool(let flag): check(sqlite3_bind_int64(handle, index, flag ? 1 : 0))
        case .date(let date): check(sqlite3_bind_double(handle, index, date.timeIntervalSince1970))
        case .uuid(let uuid):
            withUnsafeBytes(of: uuid.uuid) { bytes in
                check(sqlite3_bind_blob(handle, index, bytes.baseAddress, 16, transientDestructor))
            }
        case .data(let data):
            data.withUnsafeBytes { bytes in
                // A zero-length blob still needs a non-null pointer, or SQLite binds NULL.
                let pointer = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                check(sqlite3_bind_blob(handle, index, pointer, Int32(bytes.count), transientDestructor))
            }
        case .url(let url): bind(url.absoluteString, at: index)
        }
    }

    func bind(_ text: String, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            let pointer = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
                ?? UnsafePointer<CChar>(bitPattern: 1)
            check(sqlite3_bind_text(handle, index, pointer, Int32(bytes.count), transientDestructor))
        }
    }

    func bind(_ number: Int64, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, number))
    }

    func bindNull(at index: Int32) {
        check(sqlite3_bind_null(handle, index))
    }

    @inline(__always)
    private func check(_ code: Int32) {
        if code != SQLITE_OK && bindFailure == SQLITE_OK { bindFailure = code }
    }

    /// Binds values to parameters 1, 2, ...
    func bind(_ values: [PrimitiveValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    /// Where one value of a row goes: `values[value]` is bound to parameter `parameter`.
    struct Placement {
        let parameter: Int32
        let value: Int
    }

    /// Binds `values[placement.value]` to `placement.parameter` for each placement, without copying
    /// their text or bytes, and runs `body`, which must take the statement's step while they are
    /// bound: SQLite reads them where they lie until the step, and the values stay put only inside
    /// this call. Every later step binds anew (or ``reset()`` clears the bindings) before the values
    /// go. (A copying bind of each text costs SQLite a locked allocation and a copy: for a batch
    /// insert of 500-byte texts, a tenth of the time.) A UUID, which has no storage of its own to
    /// point at, is bound from a slot of the statement's (`uuidSlots`).
    func withBound<T>(
        _ values: UnsafeBufferPointer<PrimitiveValue>, at placements: [Placement], _ body: () throws -> T
    ) rethrows -> T {
        precondition(placements.allSatisfy { $0.value >= 0 && $0.value < values.count }, "a placement outside the values")
        return try placements.withUnsafeBufferPointer { try withBound(values, at: $0[...], body) }
    }

    private func withBound<T>(
        _ values: UnsafeBufferPointer<PrimitiveValue>, at placements: Slice<UnsafeBufferPointer<Placement>>,
        _ body: () throws -> T
    ) rethrows -> T {
        var index = placements.startIndex
        while index < placements.endIndex {
            let parameter = placements[index].parameter
            let position = placements[index].value
            switch values[position].bindingForm {
            case .text:
                let rest = placements[(index + 1)...]
                let result = try values[position].withContiguousUTF8 { bytes in
                    let pointer = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
                        ?? UnsafePointer<CChar>(bitPattern: 1)
                    check(sqlite3_bind_text(handle, parameter, pointer, Int32(bytes.count), nil))
                    return try withBound(values, at: rest, body)
                }
                if let result { return result }
                // Text without contiguous UTF-8 of its own is copied.
                bind(values[position], at: parameter)
            case .blob(let data):
                let rest = placements[(index + 1)...]
                return try data.withUnsafeBytes { bytes in
                    // A zero-length blob still needs a non-null pointer, or SQLite binds NULL.
                    let pointer = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
                    check(sqlite3_bind_blob(handle, parameter, pointer, Int32(bytes.count), nil))
                    return try withBound(values, at: rest, body)
                }
            case .uuid(let uuid):
                // Bound from the statement's own slot, not from a copy on the stack inside one
                // more closure (batch insert of 20,000 rows: 437.6 M instructions against
                // 433.4 M, callgrind; SQLite copying the bytes cost more than the closure).
                guard let slot = uuidSlot(parameter) else {
                    bind(values[position], at: parameter)
                    break
                }
                slot.pointee = uuid.uuid
                check(sqlite3_bind_blob(handle, parameter, UnsafeRawPointer(slot), 16, nil))
            case .other:
                bind(values[position], at: parameter)
            }
            index += 1
        }
        return try body()
    }

    // MARK: Running

    /// Advances to the next row; false when the statement is done.
    @inline(__always)
    func step() throws -> Bool {
        if !isActive {
            if bindFailure != SQLITE_OK {
                let error = connection.error(code: bindFailure, statement: sql)
                reset()
                throw error
            }
            isActive = true
            connection.traceStart(of: self)
        }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = connection.error(code: code, statement: sql)
        reset()
        throw error
    }

    /// Runs a statement that returns no rows, then resets it.
    func run() throws {
        defer { reset() }
        _ = try step()
    }

    /// Runs a statement that returns no rows and rewinds it for another run, keeping its bindings:
    /// for a loop that binds every parameter anew each time (clearing them is a call per run). The
    /// loop ends with ``reset()``, which also clears them.
    func runKeepingBindings() throws {
        _ = try step()
        sqlite3_reset(handle)
        isActive = false
    }

    /// Ends the current run and clears the bindings, ready for reuse.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        isActive = false
        bindFailure = SQLITE_OK
    }

    // MARK: Reading columns (0-based)

    /// The number of columns a row has.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    @inline(__always)
    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    @inline(__always)
    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    @inline(__always)
    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    @inline(__always)
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func data(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// A column as the value of an attribute of `type`; NULL reads as `.null`.
    @inline(__always)
    func value(_ column: Int32, as type: AttributeType) -> PrimitiveValue {
        switch type {
        case .string, .json:
            // A NULL column has no text, so strings need not ask for the column's type.
            guard let bytes = sqlite3_column_text(handle, column) else { return .null }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .string(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        // NULL reads as zero, so only a zero needs the column's type asked (a call per value saved).
        case .integer16, .integer32, .integer64:
            let number = int64(column)
            return number == 0 && isNull(column) ? .null : .integer(number)
        case .double:
            let number = double(column)
            return number == 0 && isNull(column) ? .null : .double(number)
        case .boolean:
            let number = int64(column)
            return number == 0 && isNull(column) ? .null : .bool(number != 0)
        case .date:
            let seconds = double(column)
            return seconds == 0 && isNull(column) ? .null : .date(Date(timeIntervalSince1970: seconds))
        case .uuid:
            guard sqlite3_column_bytes(handle, column) == 16, let bytes = sqlite3_column_blob(handle, column) else {
                return .null
            }
            return .uuid(UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)))
        case .binaryData:
            // TEXT is the reference of a value kept outside the database (`ExternalBinaryFolder`).
            switch sqlite3_column_type(handle, column) {
            case SQLITE_NULL: return .null
            case SQLITE_TEXT: return .string(text(column))
            default: return .data(data(column))
            }
        case .decimal:
            return isNull(column) ? .null : Decimal(string: text(column), locale: DecimalText.posix).map(PrimitiveValue.decimal) ?? .null
        case .uri:
            return isNull(column) ? .null : URL(string: text(column)).map(PrimitiveValue.url) ?? .null
        }
    }

    /// A column as whatever SQLite holds, for dictionary results of expressions.
    func anyValue(_ column: Int32) -> PrimitiveValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .double(double(column))
        case SQLITE_TEXT: return .string(text(column))
        case SQLITE_BLOB: return .data(data(column))
        default: return .null
        }
    }
}

/// Decimal attributes as exact text, the same for equal values.
enum DecimalText {
    static let posix = Locale(identifier: "en_US_POSIX")

    static func canonical(_ value: Decimal) -> String {
        var value = value
        var compacted = Decimal()
        NSDecimalCopy(&compacted, &value)
        NSDecimalCompact(&compacted)
        return compacted.description
    }
}

private extension PrimitiveValue {
    /// How ``Statement/withBound(_:at:_:)`` binds a value: a text read where it lies, a blob
    /// from its bytes, a UUID from the statement's slot, anything else by copy.
    enum BindingForm {
        case text
        case blob(Data)
        case uuid(UUID)
        case other
    }

    /// The value's binding form, told without copying a text: a `switch` over the value itself
    /// copies it first, a retain and a release of each text bound (batch insert of 20,000 rows:
    /// 433.1 M instructions against 429.2 M, callgrind).
    @inline(__always)
    var bindingForm: BindingForm {
        switch self {
        case .string: .text
        case .data(let data): .blob(data)
        case .uuid(let uuid): .uuid(uuid)
        default: .other
        }
    }

    /// Calls `body` with a string value's UTF-8 where it lies (nil for other values, or for text
    /// without contiguous UTF-8 of its own). Reading the value in place, instead of binding its
    /// string to a local first, saves a retain and a release of each text bound (batch insert of
    /// 20,000 rows: 444.3 M instructions against 441.6 M, callgrind).
    @inline(__always)
    func withContiguousUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard case .string(let text) = self else { return nil }
        return try text.utf8.withContiguousStorageIfAvailable(body)
    }
}
