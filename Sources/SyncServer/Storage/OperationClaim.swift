import Foundation

/// A write request's claim on its idempotency key while it runs.
public struct OperationClaim: Hashable, Sendable {
    public var key: String
    /// Identifies this request's claim, so that a request whose lease ran out cannot complete
    /// a key another request took over.
    public var claimID: String
    /// What makes two requests "the same request" (`ArticleCommand.fingerprint`).
    public var fingerprint: String
    public var method: String
    public var articleID: String
    /// Until when other requests see the key as running; afterwards they may take it over.
    public var leaseUntil: Date

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
    public enum State: Hashable, Sendable {
        case running(leaseUntil: Date)
        case completed(StoredAnswer)
    }

    public var key: String
    public var fingerprint: String
    public var method: String
    public var articleID: String
    public var state: State

    public init(key: String, fingerprint: String, method: String, articleID: String, state: State) {
        self.key = key
        self.fingerprint = fingerprint
        self.method = method
        self.articleID = articleID
        self.state = state
    }
}
