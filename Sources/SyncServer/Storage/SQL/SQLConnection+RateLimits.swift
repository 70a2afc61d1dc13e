import Foundation

extension SQLConnection {
    /// Refills the account's bucket for the time since its last request and takes one request
    /// from it if one is there, in one statement; answers the micro-requests left and whether it
    /// took one. Amounts are integers of millionths of a request, the refill a whole number of
    /// them a millisecond.
    func takeRequestToken(account: AccountID, ratePerSecond: Double, burst: Double, at date: Date)
        throws -> (availableMicro: Int64, admitted: Bool) {
        let one: Int64 = 1_000_000
        // Typed, or PostgreSQL infers 32-bit integers from the literals and a large burst overflows.
        let (burstMicro, now, refill) = ("CAST($2 AS BIGINT)", "CAST($3 AS BIGINT)", "CAST($4 AS BIGINT)")
        // At most a day's refill counts: enough to fill any bucket the rate limit allows (at most a
        // million requests a second), and never large enough to overflow.
        let elapsed = dialect.least(dialect.greatest("0", "\(now) - rate_buckets.updated_at"), "86400000")
        let refilled = dialect.least(burstMicro, "rate_buckets.available_micro + \(elapsed) * \(refill)")
        let sql = """
            INSERT INTO rate_buckets (account_id, available_micro, updated_at, admitted)
            VALUES ($1, \(burstMicro) - \(one), \(now), 1)
            ON CONFLICT (account_id) DO UPDATE SET
                available_micro = CASE WHEN \(refilled) >= \(one) THEN \(refilled) - \(one) ELSE \(refilled) END,
                admitted = CASE WHEN \(refilled) >= \(one) THEN 1 ELSE 0 END,
                updated_at = \(now)
            RETURNING available_micro, admitted
            """
        let parameters: [SQLValue] = [.integer(account.rawValue), .integer(Int64(burst * Double(one))), SQLValue(date),
                                      .integer(max(1, Int64((ratePerSecond * 1000).rounded())))]
        guard let result = try first(sql, parameters, { (try $0.integer(0), try $0.integer(1) == 1) }) else {
            throw StorageError.unreadableValue(table: "rate_buckets", column: "available_micro", detail: "no row returned")
        }
        return result
    }
}
