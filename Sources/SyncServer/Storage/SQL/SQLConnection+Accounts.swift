import Foundation

extension SQLConnection {
    func insertAccount(name: String, tokenHash: String, at date: Date) throws -> Account {
        if try first("SELECT 1 FROM accounts WHERE name = $1", [.text(name)], { _ in true }) != nil {
            throw StorageError.accountExists(name: name)
        }
        let sql = "INSERT INTO accounts (name, token_hash, created_at) VALUES ($1, $2, $3) RETURNING id"
        guard let id = try first(sql, [.text(name), .text(tokenHash), SQLValue(date)], { try $0.integer(0) }) else {
            throw StorageError.unreadableValue(table: "accounts", column: "id", detail: "INSERT returned no row")
        }
        return Account(id: AccountID(rawValue: id), name: name, createdAt: date, revokedAt: nil)
    }

    func allAccounts() throws -> [Account] {
        try all("SELECT id, name, created_at, revoked_at FROM accounts ORDER BY name", []) { row in
            Account(id: AccountID(rawValue: try row.integer(0)), name: row.text(1), createdAt: try row.date(2),
                    revokedAt: try row.optionalDate(3))
        }
    }

    func revokeAccount(name: String, at date: Date) throws -> Bool {
        let sql = "UPDATE accounts SET revoked_at = $2 WHERE name = $1 AND revoked_at IS NULL"
        return try execute(sql, [.text(name), SQLValue(date)]) == 1
    }

    func activeAccount(tokenHash: String) throws -> AccountID? {
        let sql = "SELECT id FROM accounts WHERE token_hash = $1 AND revoked_at IS NULL"
        return try first(sql, [.text(tokenHash)]) { AccountID(rawValue: try $0.integer(0)) }
    }

    /// The account's last assigned cursor and its tombstone horizon; with `locking`, on
    /// PostgreSQL, the account's row stays locked until the write transaction ends.
    func feedCounters(_ account: AccountID, locking: Bool) throws -> (head: Int64, horizon: Int64)? {
        let sql = "SELECT ac.head, ac.horizon FROM accounts ac WHERE ac.id = $1" + (locking ? dialect.lockingRows(of: "ac") : "")
        return try first(sql, [.integer(account.rawValue)]) { (try $0.integer(0), try $0.integer(1)) }
    }
}
