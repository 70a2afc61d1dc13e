import CSQLite
import Foundation

/// SQL functions and collations that ObjectGraph's generated SQL calls, implemented with the same
/// Swift code that evaluates predicates in memory (``StringMatching``).
///
/// - `og_fold(text, options)`: the text folded for case- or diacritic-insensitive equality.
/// - `og_match(operator, options, value, pattern)`: BEGINSWITH, CONTAINS, ENDSWITH or LIKE; 0 for NULL.
/// - collations `og_nocase` and `og_localized`, for sort descriptors.
enum SQLFunctions {
    static func register(on handle: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        sqlite3_create_function_v2(handle, "og_fold", 2, flags, nil, fold, nil, nil, nil)
        sqlite3_create_function_v2(handle, "og_match", 4, flags, nil, match, nil, nil, nil)
        sqlite3_create_collation_v2(handle, "og_nocase", SQLITE_UTF8, nil, compareCaseInsensitive, nil)
        sqlite3_create_collation_v2(handle, "og_localized", SQLITE_UTF8, nil, compareLocalized, nil)
    }

    private static let fold: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, _, arguments in
        guard let arguments, let text = string(arguments[0]) else {
            sqlite3_result_null(context)
            return
        }
        let folded = StringMatching.fold(text, StringOptions(rawValue: sqlite3_value_int(arguments[1])))
        var result = folded
        result.withUTF8 { bytes in
            let pointer = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
                ?? UnsafePointer<CChar>(bitPattern: 1)
            sqlite3_result_text(context, pointer, Int32(bytes.count), transientDestructor)
        }
    }

    private static let match: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, _, arguments in
        guard let arguments, let operation = StringOperator(rawValue: sqlite3_value_int(arguments[0])),
              let value = string(arguments[2]), let pattern = string(arguments[3])
        else {
            sqlite3_result_int(context, 0)
            return
        }
        let options = StringOptions(rawValue: sqlite3_value_int(arguments[1]))
        sqlite3_result_int(context, StringMatching.matches(value, operation, pattern, options) ? 1 : 0)
    }

    private static let compareCaseInsensitive: @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?
    ) -> Int32 = { _, lhsCount, lhs, rhsCount, rhs in
        Int32(StringMatching.compare(text(lhs, lhsCount), text(rhs, rhsCount), .caseInsensitive))
    }

    private static let compareLocalized: @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?
    ) -> Int32 = { _, lhsCount, lhs, rhsCount, rhs in
        Int32(StringMatching.compare(text(lhs, lhsCount), text(rhs, rhsCount), .localized))
    }

    private static func string(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let bytes = sqlite3_value_text(value) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    private static func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
        guard let bytes, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
    }
}
