import SyncProtocol

/// One write as it goes on the wire: `PUT` or `DELETE` of one article, on a precondition, under
/// an idempotency key. Every send and every lookup of an outbox entry uses the same request
/// (`OutboxEntry.request`), so the server's fingerprint of the key always matches.
public struct WriteRequest: Sendable, Hashable {
    /// What the request does, on which condition.
    public enum Action: Sendable, Hashable {
        /// `PUT` with `If-Match` or `If-None-Match: *`.
        case put(ArticlePayload, WritePrecondition)
        /// `DELETE` with `If-Match: "<base>"`.
        case delete(base: Int64)
    }

    /// The article written.
    public var articleID: String
    /// The outbox entry's ID, sent as `Idempotency-Key`.
    public var idempotencyKey: String
    /// The write and its precondition.
    public var action: Action

    /// A write of `articleID` under `idempotencyKey`.
    public init(articleID: String, idempotencyKey: String, action: Action) {
        self.articleID = articleID
        self.idempotencyKey = idempotencyKey
        self.action = action
    }

    /// `PUT` or `DELETE`.
    public var method: String {
        switch action {
        case .put: return "PUT"
        case .delete: return "DELETE"
        }
    }

    /// Which endpoint answers it, for `AnswerClass`.
    public var endpoint: SyncEndpoint {
        switch action {
        case .put: return .putArticle
        case .delete: return .deleteArticle
        }
    }

    /// The server revision the write is based on; nil for a create.
    public var baseRevision: Int64? {
        switch action {
        case .put(_, .absent): return nil
        case let .put(_, .revision(base)), let .delete(base): return base
        }
    }
}
