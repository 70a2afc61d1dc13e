import Foundation
import Testing

@testable import ObjectGraph

/// The entries of a controller's tree order rows as the table does: an entry's prefix, which a
/// walk down the tree compares first, never contradicts the values, for each kind of sort key in
/// both directions.
@Suite struct SortKeyTableTests {
    static let doubles: [PrimitiveValue] = [
        .null, .double(-.infinity), .double(-1e300), .double(-2.5), .double(-0.0), .double(0.0), .double(1e-300),
        .double(1.5), .double(1_500_000_000), .double(1_500_000_000.25), .double(1_500_000_512), .double(1e300),
        .double(.infinity),
    ]
    static let integers: [PrimitiveValue] = [
        .null, .integer(.min), .integer(-5_000_000_000), .integer(Int64(Int32.min)), .integer(-1), .integer(0),
        .bool(true), .integer(Int64(Int32.max)), .integer(5_000_000_000), .integer(.max),
    ]
    static let texts: [PrimitiveValue] = [.null, .string(""), .string("Apple"), .string("apple"), .string("Äpfel"), .string("zebra")]

    struct Key: Sendable, CustomStringConvertible {
        let type: AttributeType
        let values: [PrimitiveValue]
        var description: String { type.rawValue }
    }

    @Test(arguments: [Key(type: .double, values: doubles), Key(type: .integer64, values: integers), Key(type: .string, values: texts)],
          [true, false])
    func entriesOrderRowsAsTheirValuesDo(key: Key, ascending: Bool) {
        let table = SortKeyTable(columns: [SortKeyColumn(type: key.type, ascending: ascending, order: .caseInsensitive)])
        // Each value twice, so that equal values are ordered by the rows' keys, which the prefix
        // must leave to the table (-0 and 0 are such a pair too).
        let rows = key.values + key.values
        let slots = rows.enumerated().map { table.makeSlot(key: Int64($0.offset + 1), values: [$0.element]) }
        for lhs in slots {
            for rhs in slots {
                let walked = table.withOrder(against: rhs) { order in order(table.entry(of: lhs)) }
                #expect(walked.signum() == table.compare(lhs, rhs).signum(),
                        "\(rows[Int(lhs)]) against \(rows[Int(rhs)]), \(ascending ? "ascending" : "descending")")
                #expect(SortKeyTable.slot(of: table.entry(of: lhs)) == lhs)
            }
        }
    }

    @Test func numbersThatDifferInTheirHighBitsHaveDifferentPrefixes() {
        let table = SortKeyTable(columns: [SortKeyColumn(type: .date, ascending: false, order: .binary)])
        let dates = [1_500_000_000.0, 1_500_100_000, 1_600_000_000].map { PrimitiveValue.date(Date(timeIntervalSince1970: $0)) }
        let prefixes = dates.enumerated().map { table.entry(of: table.makeSlot(key: Int64($0.offset + 1), values: [$0.element])) >> 32 }
        // Newest first: the later date has the smaller prefix.
        #expect(prefixes[0] > prefixes[1] && prefixes[1] > prefixes[2])
    }
}
