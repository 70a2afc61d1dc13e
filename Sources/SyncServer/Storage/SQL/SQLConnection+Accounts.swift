import Foundation

extension SQLConnection {
    /// Adds the account and its first token, named `tokenName`.
    func insertAccount(name: String, tokenHash: String, tokenName: String, at date: Date) throws -> Account {
        if try first("SELECT 1 FROM accounts WHERE name = $1", [.text(name)], { _ in true }) != nil {
            throw StorageError.accountExists(name: name)
        }
        let sql = "INSERT INTO accounts (name, token_hash, created_at) VALUES ($1, $2, $3) RETURNING id"
        guard let id = try first(sql, [.text(name), .text(tokenHash), SQLValue(date)], { try $0.integer(0) }) else {
            throw StorageError.unreadableValue(table: "accounts", column: "id", detail: "INSERT returned no row")
        }
        let account = AccountID(rawValue: id)
        try insertToken(account: account, name: tokenName, hash: tokenHash, at: date)
        return Account(id: account, name: name, createdAt: date, revokedAt: nil)
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

    /// The active account named `name`, or `accountNotFound`.
    func activeAccount(named name: String) throws -> AccountID {
        let sql = "SELECT id FROM accounts WHERE name = $1 AND revoked_at IS NULL"
        guard let id = try first(sql, [.text(name)], { AccountID(rawValue: try $0.integer(0)) }) else {
            throw StorageError.accountNotFound(name: name)
        }
        return id
    }

    /// The active token whose hash is `tokenHash`, of an active account.
    func activeToken(hash tokenHash: String) throws -> (id: Int64, account: AccountID, lastUsed: Date?)? {
        let sql = """
            SELECT t.id, t.account_id, t.last_used_at FROM tokens t JOIN accounts a ON a.id = t.account_id
            WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND a.revoked_at IS NULL
            """
        return try first(sql, [.text(tokenHash)]) { row in
            (try row.integer(0), AccountID(rawValue: try row.integer(1)), try row.optionalDate(2))
        }
    }

    /// Notes that the token was used at `date`, unless a use after `since` is noted already.
    func noteUse(ofToken id: Int64, at date: Date, unlessUsedSince since: Date) throws {
        let sql = "UPDATE tokens SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)"
        try execute(sql, [.integer(id), SQLValue(date), SQLValue(since)])
    }

    /// Adds a token to the account; its name must not be taken by another active token.
    func insertToken(account: AccountID, name: String, hash: String, at date: Date) throws {
        let taken = "SELECT 1 FROM tokens WHERE account_id = $1 AND name = $2 AND revoked_at IS NULL"
        if try first(taken, [.integer(account.rawValue), .text(name)], { _ in true }) != nil {
            throw StorageError.tokenExists(name: name)
        }
        try execute("INSERT INTO tokens (account_id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
                    [.integer(account.rawValue), .text(name), .text(hash), SQLValue(date)])
    }

    func tokens(of account: AccountID) throws -> [DeviceToken] {
        let sql = "SELECT name, created_at, last_used_at, revoked_at FROM tokens WHERE account_id = $1 ORDER BY created_at, id"
        return try all(sql, [.integer(account.rawValue)]) { row in
            DeviceToken(name: row.text(0), createdAt: try row.date(1), lastUsedAt: try row.optionalDate(2),
                        revokedAt: try row.optionalDate(3))
        }
    }

    func revokeToken(account: AccountID, name: String, at date: Date) throws -> Bool {
        let sql = "UPDATE tokens SET revoked_at = $3 WHERE account_id = $1 AND name = $2 AND revoked_at IS NULL"
        return try execute(sql, [.integer(account.rawValue), .text(name), SQLValue(date)]) == 1
    }

    /// Removes the account and everything it owns, and answers what was removed.
    func deleteAccount(named name: String) throws -> AccountDeletion? {
        guard let id = try first("SELECT id FROM accounts WHERE name = $1", [.text(name)], { try $0.integer(0) }) else {
            return nil
        }
        let account: [SQLValue] = [.integer(id)]
        let liveArticles = try first("SELECT COUNT(*) FROM articles WHERE account_id = $1 AND deleted = 0", account) {
            try $0.integer(0)
        } ?? 0
        var deletion = AccountDeletion(articles: Int(liveArticles))
        deletion.revisions = try execute("DELETE FROM revisions WHERE account_id = $1", account)
        try execute("DELETE FROM articles WHERE account_id = $1", account)
        deletion.idempotencyRecords = try execute("DELETE FROM operations WHERE account_id = $1", account)
        deletion.tokens = try execute("DELETE FROM tokens WHERE account_id = $1", account)
        deletion.blobs = try execute("DELETE FROM blobs WHERE account_id = $1", account)
        try execute("DELETE FROM rate_buckets WHERE account_id = $1", account)
        try execute("DELETE FROM accounts WHERE id = $1", account)
        return deletion
    }

    /// The account's last assigned cursor and its tombstone horizon; with `locking`, on
    /// PostgreSQL, the account's row stays locked until the write transaction ends.
    func feedCounters(_ account: AccountID, locking: Bool) throws -> (head: Int64, horizon: Int64)? {
        let sql = "SELECT ac.head, ac.horizon FROM accounts ac WHERE ac.id = $1" + (locking ? dialect.lockingRows(of: "ac") : "")
        return try first(sql, [.integer(account.rawValue)]) { (try $0.integer(0), try $0.integer(1)) }
    }
}
