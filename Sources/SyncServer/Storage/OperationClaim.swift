import Foundation

/// A write request's claim on its idempotency key while it runs.
public struct OperationClaim: Hashable, Sendable {
    /// The client's idempotency key.
    public var key: String
    /// Identifies this request's claim, so that a request whose lease ran out cannot complete
    /// a key another request took over.
    public var claimID: String
    /// What makes two requests "the same request" (`ArticleCommand.fingerprint`).
    public var fingerprint: String
    /// `PUT` or `DELETE`.
    public var method: String
    /// The article the request writes.
    public var articleID: String
    /// Until when other requests see the key as running; afterwards they may take it over.
    public var leaseUntil: Date

    /// A claim with a fresh claim ID.
    public init(key: String, claimID: String = UUID().uuidString, fingerprint: String, method: String,
                articleID: String, leaseUntil: Date) {
        self.key = key
        self.claimID = claimID
        self.fingerprint = fingerprint
        self.method = method
        self.articleID = articleID
        self.leaseUntil = leaseUntil
    }
}

/// What `claimOperation` found.
public enum ClaimOutcome: Hashable, Sendable {
    /// The key is this request's now.
    case claimed
    /// The key was stored before: completed, or claimed by a request whose lease is live.
    case existing(StoredOperation)
}

/// What storage holds under an idempotency key.
public struct StoredOperation: Hashable, Sendable {
    /// Whether the key's first request is still running.
    public enum State: Hashable, Sendable {
        /// A request holds the key until `leaseUntil`.
        case running(leaseUntil: Date)
        /// The answer every replay of the key gets.
        case completed(StoredAnswer)
    }

    /// The client's idempotency key.
    public var key: String
    /// The fingerprint of the request that first used the key.
    public var fingerprint: String
    /// `PUT` or `DELETE`.
    public var method: String
    /// The article that request wrote.
    public var articleID: String
    /// Running, or completed with its answer.
    public var state: State

    /// A stored operation as storage read it.
    public init(key: String, fingerprint: String, method: String, articleID: String, state: State) {
        self.key = key
        self.fingerprint = fingerprint
        self.method = method
        self.articleID = articleID
        self.state = state
    }
}
