/// The answer to `GET /v1/operations/{key}`: what became of a write sent with that idempotency
/// key, for a client that sent it but never saw the answer.
///
/// 404 means the server never stored the key for this account: the write was not applied, and
/// resending it with the same key is safe. A resend is safe in every state: a completed key
/// returns the stored answer again.
public struct OperationOutcome: Codable, Hashable, Sendable {
    /// Whether the first request with the key has finished.
    public enum State: String, Codable, Hashable, Sendable {
        /// The first request with the key has not finished; ask again after a moment.
        case running
        /// The answer below is final and is what any replay of the key returns.
        case completed
    }

    /// The idempotency key asked about.
    public var key: String
    /// `running` or `completed`.
    public var state: State
    /// `PUT` or `DELETE`.
    public var method: String
    /// The article the write was for (`articleId` on the wire).
    public var articleID: String
    /// The stored answer's HTTP status, when completed.
    public var status: Int?
    /// The stored answer's `ETag`, when it had one.
    public var eTag: String?
    /// The stored answer of a successful `PUT`.
    public var article: Article?
    /// The stored answer of a successful `DELETE`.
    public var change: ArticleChange?
    /// The stored answer when it was an error (412, 404).
    public var problem: Problem?

    /// An outcome as the server answers with it.
    public init(
        key: String, state: State, method: String, articleID: String, status: Int? = nil,
        eTag: String? = nil, article: Article? = nil, change: ArticleChange? = nil, problem: Problem? = nil
    ) {
        self.key = key
        self.state = state
        self.method = method
        self.articleID = articleID
        self.status = status
        self.eTag = eTag
        self.article = article
        self.change = change
        self.problem = problem
    }

    private enum CodingKeys: String, CodingKey {
        case key, state, method, articleID = "articleId", status, eTag = "etag", article, change, problem
    }
}
