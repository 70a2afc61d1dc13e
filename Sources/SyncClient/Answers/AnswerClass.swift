/// What a client does about an HTTP status from the sync server, by endpoint: the one table every
/// answer goes through before its body is read.
///
/// | status | class |
/// |---|---|
/// | 2xx | success |
/// | 401 | accountRejected: stop the worker, the writer must sign in again |
/// | 404 on `DELETE` | success: the article is already gone (the body may hold its tombstone) |
/// | 404 on `operations/{key}` | success: the key is unknown, the write was never applied |
/// | 404 on `blobs/{sha256}` (HEAD, GET) | success: the account does not hold the blob |
/// | 409 on writes | retryable: the first request with the key is still running; retry shortly |
/// | 410 on `changes` | resyncRequired: read the snapshot, then continue the feed |
/// | 412 on writes | conflict: the base is stale; the body holds the server's version |
/// | 408, 425, 429 | retryable (429 with `Retry-After`) |
/// | other 4xx (400, 404, 405, 413, 415, 422, 428, 431, …) | terminal: resending cannot help |
/// | 507 on a blob `PUT` | terminal: the account's attachments are at their quota |
/// | 5xx (500, 502, 503, 504, …) | retryable (503 with `Retry-After`) |
/// | 1xx, 3xx, anything else | unexpected: the answer is invalid |
public enum AnswerClass: String, Sendable, Hashable, CaseIterable {
    /// The request did what it asked (or the answer is the information asked for).
    case success
    /// A write's base is stale.
    case conflict
    /// Try again later, with the same idempotency key for a write.
    case retryable
    /// The server refused the request for good.
    case terminal
    /// The token is unknown or revoked.
    case accountRejected
    /// The feed cannot continue from the cursor.
    case resyncRequired
    /// Not an answer the protocol has; treated as an invalid answer.
    case unexpected

    /// The class of `status` from `endpoint`.
    public static func of(status: Int, endpoint: SyncEndpoint) -> AnswerClass {
        switch status {
        case 200...299: return .success
        case 401: return .accountRejected
        case 404 where endpoint == .deleteArticle || endpoint == .operation || endpoint == .readBlob: return .success
        case 507 where endpoint == .putBlob: return .terminal
        case 409 where endpoint.isWrite: return .retryable
        case 410 where endpoint == .changes: return .resyncRequired
        case 412 where endpoint.isWrite: return .conflict
        case 408, 425, 429: return .retryable
        case 400...499: return .terminal
        case 500...599: return .retryable
        default: return .unexpected
        }
    }
}
