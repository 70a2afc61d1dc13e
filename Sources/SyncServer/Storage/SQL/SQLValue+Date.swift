import Foundation

extension SQLValue {
    /// Times are stored as milliseconds since 1970 on both engines.
    init(_ date: Date) { self = .integer(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))) }
}

extension SQLRow {
    func date(_ column: Int32) throws -> Date {
        Date(timeIntervalSince1970: Double(try integer(column)) / 1000)
    }

    func optionalDate(_ column: Int32) throws -> Date? { isNull(column) ? nil : try date(column) }
}
