import Foundation
import SyncProtocol

/// Blob statements. Every one is scoped to the account: no statement can read, count or replace
/// another account's blob, so one account learns nothing of another's (its HEAD of a blob only
/// the other holds answers as for any missing blob).
extension SQLConnection {
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
        try execute("INSERT INTO blobs (account_id, sha256, size, bytes, created_at, wanted_at) VALUES ($1, $2, $3, $4, $5, $5)",
                    [.integer(account.rawValue), .text(sha256), .integer(Int64(bytes.count)), .bytes(bytes), SQLValue(date)])
    }

    /// Notes that the account asked for its blob at `date` (an upload of it, a `HEAD`, an article
    /// referring to it) and answers its size, or nil when the account holds none such. The
    /// collector leaves a blob alone for its grace period after that.
    func wantBlob(_ sha256: String, account: AccountID, at date: Date) throws -> Int64? {
        try first("UPDATE blobs SET wanted_at = $3 WHERE account_id = $1 AND sha256 = $2 RETURNING size",
                  [.integer(account.rawValue), .text(sha256), SQLValue(date)]) { try $0.integer(0) }
    }

    /// Removes the account's blobs that no stored revision refers to (``BlobReference``) and that
    /// nobody asked for since `cutoff`; answers how many went and their bytes. Runs in the
    /// account's write transaction, after `feedCounters(locking: true)`, so no article write
    /// commits between reading the references and removing the blobs.
    func collectBlobs(account: AccountID, unwantedBefore cutoff: Date) throws -> (count: Int, bytes: Int64) {
        let parameters: [SQLValue] = [.integer(account.rawValue), SQLValue(cutoff)]
        let candidates = try all("SELECT sha256, size FROM blobs WHERE account_id = $1 AND wanted_at < $2", parameters) {
            ($0.text(0), try $0.integer(1))
        }
        guard !candidates.isEmpty else { return (0, 0) }
        // Every revision the feed still holds counts, superseded ones too: a client behind on the
        // feed may still pull the article as it was, and then fetch its images.
        var referred = Set<String>()
        try query("SELECT body FROM revisions WHERE account_id = $1 AND body LIKE '%attachment:%'", [.integer(account.rawValue)]) {
            referred.formUnion(BlobReference.digests(in: $0.text(0)))
        }
        var removed = (count: 0, bytes: Int64(0))
        for (sha256, size) in candidates where !referred.contains(sha256) {
            // Asked again for the time since it was read: a request that wanted it meanwhile keeps it.
            let gone = try execute("DELETE FROM blobs WHERE account_id = $1 AND wanted_at < $2 AND sha256 = $3",
                                   parameters + [.text(sha256)])
            if gone > 0 {
                removed.count += 1
                removed.bytes += size
            }
        }
        return removed
    }
}
