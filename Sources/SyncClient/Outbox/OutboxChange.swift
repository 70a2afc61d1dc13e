import SyncProtocol

/// What an outbox entry asks the server to do to its article.
public enum OutboxChange: Sendable, Hashable, Codable {
    /// Replace the whole content (`PUT`): an optional field left out is absent afterwards, so the
    /// latest put of an article carries everything the writer saved before it.
    case put(ArticlePayload)
    /// Delete the article, leaving a tombstone on the server (`DELETE`).
    case delete
}
