import Foundation

extension SQLConnection {
    /// Removes the account's tombstones older than `cutoff` with every revision of their articles,
    /// and moves the horizon to the newest removed tombstone. Runs in the account's write
    /// transaction, after `feedCounters(locking: true)`.
    func purgeTombstones(account: AccountID, horizon: Int64, before cutoff: Date) throws -> Int {
        let parameters: [SQLValue] = [.integer(account.rawValue), SQLValue(cutoff)]
        let newest = try first(
            "SELECT MAX(revision) FROM articles WHERE account_id = $1 AND deleted = 1 AND changed_at < $2",
            parameters) { try $0.optionalInteger(0) } ?? nil
        guard let newest else { return 0 }
        try execute(
            """
            DELETE FROM revisions WHERE account_id = $1 AND article_id IN (
                SELECT article_id FROM articles WHERE account_id = $1 AND deleted = 1 AND changed_at < $2)
            """, parameters)
        let removed = try execute("DELETE FROM articles WHERE account_id = $1 AND deleted = 1 AND changed_at < $2", parameters)
        try execute("UPDATE accounts SET horizon = $2 WHERE id = $1", [.integer(account.rawValue), .integer(max(horizon, newest))])
        return removed
    }

    /// Removes revisions older than `cutoff` that a later change of their article replaced. A
    /// reader from an older cursor still gets that later change, so nothing it needs is lost.
    func purgeSupersededRevisions(account: AccountID, before cutoff: Date) throws -> Int {
        try execute(
            """
            DELETE FROM revisions WHERE account_id = $1 AND changed_at < $2 AND NOT EXISTS (
                SELECT 1 FROM articles a WHERE a.account_id = revisions.account_id
                AND a.article_id = revisions.article_id AND a.revision = revisions.cursor)
            """, [.integer(account.rawValue), SQLValue(cutoff)])
    }

    /// Removes operations completed before `cutoff`, and claims whose lease ended before it.
    func purgeOperations(before cutoff: Date) throws -> Int {
        try execute(
            """
            DELETE FROM operations WHERE (completed_at IS NOT NULL AND completed_at < $1)
                OR (completed_at IS NULL AND lease_until < $1)
            """, [SQLValue(cutoff)])
    }
}
