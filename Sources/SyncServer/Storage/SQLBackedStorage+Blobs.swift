import Foundation

extension SQLBackedStorage {
    // Noting when a blob was wanted goes on the connection that does not wait for the disk: the
    // article write that follows is durable and flushes it; a note lost in a crash only shortens
    // a blob's grace, and the article's own check notes it again.
    func wantBlob(_ sha256: String, account: AccountID, at date: Date) throws -> Int64? {
        try withConnection(for: .claims) { try $0.wantBlob(sha256, account: account, at: date) }
    }

    func blob(_ sha256: String, account: AccountID) throws -> [UInt8]? {
        try withConnection(for: .reader) { try $0.blobBytes(sha256, account: account) }
    }

    func storeBlob(_ sha256: String, bytes: [UInt8], account: AccountID, quota: Int64?, at date: Date) throws -> BlobStoring {
        try withConnection(for: .writer) { connection in
            try connection.transaction(.write) {
                // The account's row stays locked (PostgreSQL; SQLite serializes every writer), so
                // two uploads at once cannot both fit under the quota that only one fits under.
                _ = try connection.feedCounters(account, locking: true)
                if try connection.wantBlob(sha256, account: account, at: date) != nil { return .alreadyStored }
                if let quota {
                    let used = try connection.blobBytesUsed(account: account)
                    if used + Int64(bytes.count) > quota { return .overQuota(used: used) }
                }
                try connection.insertBlob(sha256, bytes: bytes, account: account, at: date)
                return .stored
            }
        }
    }

    func missingBlobs(_ digests: [String], account: AccountID, at date: Date) throws -> [String] {
        guard !digests.isEmpty else { return [] }
        return try withConnection(for: .claims) { connection in
            try digests.filter { try connection.wantBlob($0, account: account, at: date) == nil }
        }
    }
}
