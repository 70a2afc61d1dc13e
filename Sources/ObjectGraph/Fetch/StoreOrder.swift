/// How objects whose sort keys are all equal are ordered: by store order (saved objects by primary
/// key, then unsaved ones in the order they were inserted), in the direction of the last sort key.
///
/// An index that serves a sort holds equal values in primary-key order, and SQLite reads it in one
/// direction only: a descending sort walks it backwards, so its ties come in descending key order.
/// A tie-break fixed to ascending keys would make SQLite sort every row again ("USE TEMP B-TREE
/// FOR RIGHT PART OF ORDER BY"). Following the last key also serves a sort whose leading keys are
/// held equal by the predicate. SQL, in-memory sorting, keyset cursors and fetched-results
/// controllers all follow this one rule, so their orders agree.
enum StoreOrder {
    /// Whether ties run in ascending store order for a sort with these directions (no sort:
    /// ascending).
    static func tiesAscend(_ directions: some BidirectionalCollection<Bool>) -> Bool {
        directions.last ?? true
    }

    /// Saved objects by primary key, then unsaved ones in the order they were inserted (temporary
    /// keys count down from -1).
    @inline(__always)
    static func rank(ofKey key: Int64) -> UInt64 {
        key > 0 ? UInt64(key) : UInt64(Int64.max) + UInt64(-key)
    }

    /// How two keys order as ties: negative when `lhs` comes first.
    @inline(__always)
    static func compare(_ lhs: Int64, _ rhs: Int64, ascending: Bool) -> Int {
        let left = rank(ofKey: lhs)
        let right = rank(ofKey: rhs)
        let order = left < right ? -1 : (left > right ? 1 : 0)
        return ascending ? order : -order
    }
}
