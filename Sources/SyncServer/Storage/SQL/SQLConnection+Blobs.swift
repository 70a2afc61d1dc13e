import Foundation

/// Blob statements. Every one is scoped to the account: no statement can read, count or replace
/// another account's blob, so one account learns nothing of another's (its HEAD of a blob only
/// the other holds answers as for any missing blob).
extension SQLConnection {
    func blobSize(_ sha256: String, account: AccountID) throws -> Int64? {
        try first("SELECT size FROM blobs WHERE account_id = $1 AND sha256 = $2", [.integer(account.rawValue), .text(sha256)]) {
            try $0.integer(0)
        }
    }

    func blobBytes(_ sha256: String, account: AccountID) throws -> [UInt8]? {
        try first("SELECT bytes FROM blobs WHERE account_id = $1 AND sha256 = $2", [.integer(account.rawValue), .text(sha256)]) {
            try $0.bytes(0)
        }
    }

    /// What the account's blobs take, in bytes.
    func blobBytesUsed(account: AccountID) throws -> Int64 {
        try first("SELECT COALESCE(SUM(size), 0) FROM blobs WHERE account_id = $1", [.integer(account.rawValue)]) {
            try $0.integer(0)
        } ?? 0
    }

    func insertBlob(_ sha256: String, bytes: [UInt8], account: AccountID, at date: Date) throws {
        try execute("INSERT INTO blobs (account_id, sha256, size, bytes, created_at) VALUES ($1, $2, $3, $4, $5)",
                    [.integer(account.rawValue), .text(sha256), .integer(Int64(bytes.count)), .bytes(bytes), SQLValue(date)])
    }
}
