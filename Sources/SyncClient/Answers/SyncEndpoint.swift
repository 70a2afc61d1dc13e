/// The requests the sync client makes; a status means different things on different ones.
public enum SyncEndpoint: String, Sendable, Hashable, CaseIterable {
    /// `PUT /v1/articles/{id}`.
    case putArticle
    /// `DELETE /v1/articles/{id}`.
    case deleteArticle
    /// `GET /v1/changes`.
    case changes
    /// `GET /v1/articles` (snapshot pages).
    case snapshot
    /// `GET /v1/operations/{key}`.
    case operation
    /// `GET /v1/health`.
    case health
    /// `HEAD` or `GET /v1/blobs/{sha256}`.
    case readBlob
    /// `PUT /v1/blobs/{sha256}` (idempotent by content, with no key).
    case putBlob

    /// Whether the endpoint writes (and carries an idempotency key).
    public var isWrite: Bool { self == .putArticle || self == .deleteArticle }
}
