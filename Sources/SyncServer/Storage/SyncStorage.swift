import Foundation
import SyncProtocol

/// Everything the server keeps, behind one interface with two implementations: `SQLiteStorage`
/// (one process, the default) and `PostgresStorage` (any number of processes on one database).
///
/// The server holds no state of its own beyond a per-process rate limit, so whatever one
/// process commits here every other process serves at once. Every method that touches articles,
/// keys or cursors takes the account, and every statement filters by it.
public protocol SyncStorage: Sendable {
    /// Creates an account with a first token, named `tokenName`, whose SHA-256 is `tokenHash`.
    /// Throws `StorageError.accountExists` when the name is taken.
    func addAccount(name: String, tokenHash: String, tokenName: String, at date: Date) throws -> Account

    /// Every account, revoked ones included, by name.
    func accounts() throws -> [Account]

    /// Stops every token of the account from working; its articles stay. False when there is no
    /// such active account.
    func revokeAccount(name: String, at date: Date) throws -> Bool

    /// Removes the account and all its data (articles, revisions, idempotency records, tokens)
    /// and says what it removed; nil when there is no account of this name (revoked or not).
    func deleteAccount(name: String) throws -> AccountDeletion?

    /// The active account whose active token hashes to `tokenHash`. Notes the token's use, at
    /// most once a minute, for `tokens(account:)`.
    func authenticate(tokenHash: String, at date: Date) throws -> AccountID?

    /// Adds a token named `name` (one per device) to the active account `account`. Throws
    /// `accountNotFound` or `tokenExists`.
    func addToken(account: String, name: String, tokenHash: String, at date: Date) throws

    /// The account's tokens, revoked ones included, oldest first. Throws `accountNotFound`.
    func tokens(account: String) throws -> [DeviceToken]

    /// Stops the account's active token named `name`; the account's other tokens keep working.
    /// False when it has no such active token; throws `accountNotFound`.
    func revokeToken(account: String, name: String, at date: Date) throws -> Bool

    /// The article's current server version: its content, its tombstone, or nil.
    func article(_ id: String, account: AccountID) throws -> ArticleChange?

    /// Changes after `since` in commit order, at most `limit`, or `.resyncRequired` when `since`
    /// is older than the tombstone horizon or newer than anything this account's feed gave.
    ///
    /// The page also ends early once its articles' titles and bodies reach `maximumBytes` (it
    /// always holds at least one change), so that what one request holds in memory is bounded
    /// whatever the articles weigh; `hasMore` then says to read on.
    func changes(account: AccountID, since: Int64, limit: Int, maximumBytes: Int) throws -> ChangeFeedRead

    /// Live articles with IDs after `after` (bytewise), at most `limit` and ending early at
    /// `maximumBytes` as `changes` does, with the feed position.
    func snapshot(account: AccountID, after: String?, limit: Int, maximumBytes: Int) throws -> ArticlesPage

    /// Records that a request with `claim.key` is running, unless the key is known: then it
    /// returns what is stored (a completed answer, or another request's live claim). A running
    /// claim whose lease ended (its server died) is taken over when the fingerprints agree.
    func claimOperation(_ claim: OperationClaim, account: AccountID, now: Date) throws -> ClaimOutcome

    /// Drops a running claim whose request failed without an answer worth keeping (a 500).
    func abandonOperation(_ claim: OperationClaim, account: AccountID) throws

    /// What is stored under the idempotency key.
    func operation(key: String, account: AccountID) throws -> StoredOperation?

    /// Applies `command` in one serialized write transaction: checks the precondition against the
    /// current version, assigns the next cursor of the account's feed when it writes, and stores
    /// the answer under `claim`'s key in the same transaction. Returns nil, writing nothing, when
    /// the claim was taken over meanwhile.
    func apply(_ command: ArticleCommand, account: AccountID, claim: OperationClaim?, now: Date) throws -> StoredAnswer?

    /// The bytes of the account's blob named `sha256`, or nil.
    func blob(_ sha256: String, account: AccountID) throws -> [UInt8]?

    /// Stores `bytes` (whose SHA-256 the caller checked is `sha256`) as the account's blob in one
    /// write transaction, unless the account holds it already or it would take the account's
    /// blobs past `quota` bytes (nil: no quota).
    func storeBlob(_ sha256: String, bytes: [UInt8], account: AccountID, quota: Int64?, at date: Date) throws -> BlobStoring

    /// The size of the account's blob named `sha256`, noting that it was wanted at `date` (a
    /// `HEAD` before an article that refers to it), or nil when the account holds none such
    /// (whether another account does is never told).
    func wantBlob(_ sha256: String, account: AccountID, at date: Date) throws -> Int64?

    /// The digests of `digests` the account holds no blob for, in their order; the others are
    /// noted as wanted at `date` (an article refers to them).
    func missingBlobs(_ digests: [String], account: AccountID, at date: Date) throws -> [String]

    /// Removes what is older than `cutoff`: tombstones (moving each account's horizon past them),
    /// revisions that a later one superseded, completed operations and dead claims; then blobs
    /// that no revision left refers to and that nobody uploaded, asked for or referred to since
    /// `blobCutoff` (their grace: an upload whose article has not arrived yet is kept).
    func purge(before cutoff: Date, unwantedBlobsBefore blobCutoff: Date) throws -> PurgeReport

    /// Whether several server processes may serve this storage at once (PostgreSQL). Their
    /// accounts' rate limits are then kept in it, shared, instead of in each process.
    var isShared: Bool { get }

    /// Takes a request from the account's shared bucket (`rate` a second, bursts up to `burst`):
    /// nil when admitted, else the whole seconds until one is back. One statement, atomic
    /// whichever process runs it.
    func takeRequestToken(account: AccountID, rate: Double, burst: Double, at date: Date) throws -> Int?

    /// Writes a consistent copy of everything to `file` (which must not exist) while serving.
    /// SQLite only; a PostgreSQL database is backed up with `pg_dump`.
    func backup(to file: URL) throws

    /// Moves every account's feed to a new epoch after the database was restored from a backup:
    /// the next cursor jumps far past any the lost database could have given, and every older
    /// cursor gets 410, so that each client resyncs once from the snapshot instead of taking
    /// new changes under numbers it saw for lost ones. Answers how many accounts moved.
    func startNewFeedEpoch() throws -> Int

    /// Throws when the database does not answer.
    func checkHealth() throws

    /// Releases the database (and SQLite's serving lock); every later call throws.
    func close()
}

extension SyncStorage {
    /// `addAccount` with the first token named `default`.
    public func addAccount(name: String, tokenHash: String, at date: Date) throws -> Account {
        try addAccount(name: name, tokenHash: tokenHash, tokenName: "default", at: date)
    }

    /// The active account whose active token hashes to `tokenHash`, noting the use now.
    public func account(tokenHash: String) throws -> AccountID? {
        try authenticate(tokenHash: tokenHash, at: Date())
    }

    /// `changes` with no byte budget.
    public func changes(account: AccountID, since: Int64, limit: Int) throws -> ChangeFeedRead {
        try changes(account: account, since: since, limit: limit, maximumBytes: .max)
    }

    /// `snapshot` with no byte budget.
    public func snapshot(account: AccountID, after: String?, limit: Int) throws -> ArticlesPage {
        try snapshot(account: account, after: after, limit: limit, maximumBytes: .max)
    }
}
