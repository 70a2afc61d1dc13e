import Foundation
import SyncProtocol

/// `SyncStorage` over SQL that both engines share; an engine only says how it hands out
/// connections for each role.
protocol SQLBackedStorage: SyncStorage {
    /// Runs `body` with a connection of `role` that no other thread uses meanwhile.
    func withConnection<T>(for role: ConnectionRole, _ body: (any SQLConnection) throws -> T) throws -> T
}

extension SQLBackedStorage {
    private func inTransaction<T>(_ kind: TransactionKind, _ body: (any SQLConnection) throws -> T) throws -> T {
        try withConnection(for: kind == .read ? .reader : .writer) { connection in
            try connection.transaction(kind) { try body(connection) }
        }
    }

    func addAccount(name: String, tokenHash: String, tokenName: String, at date: Date) throws -> Account {
        try inTransaction(.write) { try $0.insertAccount(name: name, tokenHash: tokenHash, tokenName: tokenName, at: date) }
    }

    func accounts() throws -> [Account] {
        try inTransaction(.read) { try $0.allAccounts() }
    }

    func revokeAccount(name: String, at date: Date) throws -> Bool {
        try inTransaction(.write) { try $0.revokeAccount(name: name, at: date) }
    }

    func deleteAccount(name: String) throws -> AccountDeletion? {
        try inTransaction(.write) { try $0.deleteAccount(named: name) }
    }

    func authenticate(tokenHash: String, at date: Date) throws -> AccountID? {
        guard let token = try withConnection(for: .reader, { try $0.activeToken(hash: tokenHash) }) else { return nil }
        // A write per minute and token at most, on the connection that need not wait for the disk:
        // losing a "last used" time in a crash is harmless.
        let minuteAgo = date - 60
        if token.lastUsed.map({ $0 < minuteAgo }) ?? true {
            try withConnection(for: .claims) { try $0.noteUse(ofToken: token.id, at: date, unlessUsedSince: minuteAgo) }
        }
        return token.account
    }

    func addToken(account: String, name: String, tokenHash: String, at date: Date) throws {
        try inTransaction(.write) { connection in
            try connection.insertToken(account: try connection.activeAccount(named: account), name: name, hash: tokenHash, at: date)
        }
    }

    func tokens(account: String) throws -> [DeviceToken] {
        try inTransaction(.read) { connection in try connection.tokens(of: try connection.activeAccount(named: account)) }
    }

    func revokeToken(account: String, name: String, at date: Date) throws -> Bool {
        try inTransaction(.write) { connection in
            try connection.revokeToken(account: try connection.activeAccount(named: account), name: name, at: date)
        }
    }

    func article(_ id: String, account: AccountID) throws -> ArticleChange? {
        try withConnection(for: .reader) { try $0.currentVersion(of: id, account: account) }
    }

    func changes(account: AccountID, since: Int64, limit: Int, maximumBytes: Int) throws -> ChangeFeedRead {
        try inTransaction(.read) { connection in
            guard let (head, horizon) = try connection.feedCounters(account, locking: false),
                  since >= horizon, since <= head
            else { return .resyncRequired }
            let (changes, hasMore) = try connection.revisions(account: account, after: since, limit: limit,
                                                              maximumBytes: maximumBytes)
            return .page(ChangesPage(changes: changes, nextCursor: changes.last?.cursor ?? since, hasMore: hasMore))
        }
    }

    func snapshot(account: AccountID, after: String?, limit: Int, maximumBytes: Int) throws -> ArticlesPage {
        try inTransaction(.read) { connection in
            let head = try connection.feedCounters(account, locking: false)?.head ?? 0
            let (articles, hasMore) = try connection.liveArticles(account: account, after: after ?? "", limit: limit,
                                                                  maximumBytes: maximumBytes)
            return ArticlesPage(articles: articles, cursor: head, hasMore: hasMore)
        }
    }

    func claimOperation(_ claim: OperationClaim, account: AccountID, now: Date) throws -> ClaimOutcome {
        try withConnection(for: .claims) { connection in
            // Each statement is atomic on its own; a key that changes between them is read again.
            for _ in 0..<3 {
                if try connection.insertClaim(claim, account: account, at: now) { return .claimed }
                guard let (stored, holder) = try connection.storedOperationAndClaim(key: claim.key, account: account) else {
                    continue
                }
                guard case let .running(leaseUntil) = stored.state, leaseUntil <= now,
                      stored.fingerprint == claim.fingerprint, let holder
                else { return .existing(stored) }
                if try connection.takeOverClaim(claim, from: holder, account: account) { return .claimed }
            }
            throw StorageError.contention("idempotency key \(claim.key) kept changing while it was claimed")
        }
    }

    func abandonOperation(_ claim: OperationClaim, account: AccountID) throws {
        try withConnection(for: .claims) { try $0.deleteClaim(claim, account: account) }
    }

    func operation(key: String, account: AccountID) throws -> StoredOperation? {
        try withConnection(for: .reader) { try $0.storedOperation(key: key, account: account) }
    }

    func apply(_ command: ArticleCommand, account: AccountID, claim: OperationClaim?, now: Date) throws -> StoredAnswer? {
        do {
            return try inTransaction(.write) { connection in
                guard let state = try connection.writeState(account: account, articleID: command.articleID, key: claim?.key) else {
                    throw StorageError.unreadableValue(table: "accounts", column: "id", detail: "no account \(account)")
                }
                if let claim, state.claimHolder != claim.claimID { throw ClaimTakenOver() }
                var statements: [SQLStatement] = []
                let answer = try command.answer(current: state.current) { content in
                    let cursor = state.head + 1
                    statements = try connection.versionStatements(
                        of: command.articleID, content: content, cursor: cursor, account: account, at: now)
                    let article = content.map { Article(id: command.articleID, revision: cursor, updatedAt: now, content: $0) }
                    return ArticleChange(cursor: cursor, id: command.articleID, revision: cursor, deleted: content == nil,
                                         changedAt: now, article: article)
                }
                if let claim { statements.append(connection.completion(of: claim, answer: answer, account: account, at: now)) }
                let changed = try connection.executeBatch(statements)
                if claim != nil, changed.last != 1 { throw ClaimTakenOver() }
                return answer
            }
        } catch is ClaimTakenOver {
            return nil
        }
    }

    func purge(before cutoff: Date, unwantedBlobsBefore blobCutoff: Date) throws -> PurgeReport {
        var report = PurgeReport()
        for account in try accounts() {
            try inTransaction(.write) { connection in
                guard let (_, horizon) = try connection.feedCounters(account.id, locking: true) else { return }
                report.tombstones += try connection.purgeTombstones(account: account.id, horizon: horizon, before: cutoff)
                report.supersededRevisions += try connection.purgeSupersededRevisions(account: account.id, before: cutoff)
                // After the revisions: blobs only they referred to go in the same purge.
                let blobs = try connection.collectBlobs(account: account.id, unwantedBefore: blobCutoff)
                report.blobs += blobs.count
                report.blobBytes += blobs.bytes
            }
        }
        report.operations = try withConnection(for: .claims) { try $0.purgeOperations(before: cutoff) }
        return report
    }

    func takeRequestToken(account: AccountID, rate: Double, burst: Double, at date: Date) throws -> Int? {
        let (available, admitted) = try withConnection(for: .claims) { connection in
            try connection.takeRequestToken(account: account, ratePerSecond: rate, burst: burst, at: date)
        }
        guard !admitted else { return nil }
        let missing = Double(1_000_000 - available) / 1_000_000
        return max(1, Int((missing / rate).rounded(.up)))
    }

    func startNewFeedEpoch() throws -> Int {
        try inTransaction(.write) { connection in
            // Both use the head as it was: the new horizon is the new head.
            try connection.execute("UPDATE accounts SET head = head + $1, horizon = head + $1", [.integer(feedEpochGap)])
        }
    }

    func checkHealth() throws {
        try withConnection(for: .reader) { connection in
            _ = try connection.first("SELECT version FROM schema_info", []) { try $0.integer(0) }
        }
    }
}

/// How far a new feed epoch moves each account's cursor: more writes than any server takes
/// between a backup and its restore.
private let feedEpochGap: Int64 = 1 << 32

/// Rolls back a write whose idempotency claim another request took over after its lease ended.
private struct ClaimTakenOver: Error {}
