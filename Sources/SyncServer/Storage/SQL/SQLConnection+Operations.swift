import Foundation

extension SQLConnection {
    private static var operationColumns: String {
        "key, fingerprint, method, article_id, lease_until, status, etag, response, claim_id"
    }

    func storedOperation(key: String, account: AccountID) throws -> StoredOperation? {
        try storedOperationAndClaim(key: key, account: account)?.operation
    }

    /// Inserts the claim unless the key exists, in one atomic statement: of concurrent requests
    /// with a new key exactly one inserts it.
    func insertClaim(_ claim: OperationClaim, account: AccountID, at date: Date) throws -> Bool {
        let sql = """
            INSERT INTO operations (account_id, key, fingerprint, method, article_id, claim_id, lease_until, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (account_id, key) DO NOTHING
            """
        return try execute(sql, [
            .integer(account.rawValue), .text(claim.key), .text(claim.fingerprint), .text(claim.method),
            .text(claim.articleID), .text(claim.claimID), SQLValue(claim.leaseUntil), SQLValue(date),
        ]) == 1
    }

    /// Moves a running key from the claim `previousClaimID` (whose lease ended) to `claim`, unless
    /// another request moved or completed it first.
    func takeOverClaim(_ claim: OperationClaim, from previousClaimID: String, account: AccountID) throws -> Bool {
        let sql = """
            UPDATE operations SET claim_id = $3, lease_until = $4
            WHERE account_id = $1 AND key = $2 AND claim_id = $5 AND completed_at IS NULL
            """
        return try execute(sql, [
            .integer(account.rawValue), .text(claim.key), .text(claim.claimID), SQLValue(claim.leaseUntil),
            .text(previousClaimID),
        ]) == 1
    }

    /// The statement that stores the answer under the key, if `claim` still holds it (it then
    /// changes one row).
    func completion(of claim: OperationClaim, answer: StoredAnswer, account: AccountID, at date: Date) -> SQLStatement {
        SQLStatement(
            """
            UPDATE operations SET claim_id = NULL, lease_until = NULL, status = $3, etag = $4, response = $5,
                completed_at = $6
            WHERE account_id = $1 AND key = $2 AND claim_id = $7 AND completed_at IS NULL
            """,
            [.integer(account.rawValue), .text(claim.key), .integer(Int64(answer.status)), SQLValue(answer.eTag),
             .text(String(decoding: answer.body, as: UTF8.self)), SQLValue(date), .text(claim.claimID)])
    }

    func deleteClaim(_ claim: OperationClaim, account: AccountID) throws {
        let sql = "DELETE FROM operations WHERE account_id = $1 AND key = $2 AND claim_id = $3 AND completed_at IS NULL"
        try execute(sql, [.integer(account.rawValue), .text(claim.key), .text(claim.claimID)])
    }

    /// The stored operation and, while it runs, the ID of the claim holding it.
    func storedOperationAndClaim(key: String, account: AccountID) throws -> (operation: StoredOperation, claimID: String?)? {
        let sql = "SELECT \(Self.operationColumns) FROM operations WHERE account_id = $1 AND key = $2"
        return try first(sql, [.integer(account.rawValue), .text(key)]) { row in
            let state: StoredOperation.State
            if let status = try row.optionalInteger(5) {
                let body = Array((row.optionalText(7) ?? "").utf8)
                state = .completed(StoredAnswer(status: Int(status), eTag: row.optionalText(6), body: body))
            } else {
                state = .running(leaseUntil: try row.optionalDate(4) ?? .distantPast)
            }
            let operation = StoredOperation(
                key: row.text(0), fingerprint: row.text(1), method: row.text(2), articleID: row.text(3), state: state)
            return (operation, row.optionalText(8))
        }
    }
}
