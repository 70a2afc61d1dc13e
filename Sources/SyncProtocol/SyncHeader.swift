/// HTTP header names the sync protocol gives a meaning to.
public enum SyncHeader {
    /// `Bearer <token>` on every request but the health check.
    public static let authorization = "Authorization"
    /// `"<revision>"`: update only if this is still the server's revision (see `RevisionTag`).
    public static let ifMatch = "If-Match"
    /// `*`: create only if no live article has this ID.
    public static let ifNoneMatch = "If-None-Match"
    /// The strong entity tag of the returned revision, as `"<revision>"`.
    public static let eTag = "ETag"
    /// The client's operation ID for a write. A replay with the same key returns the stored answer.
    public static let idempotencyKey = "Idempotency-Key"
    /// `true` on an answer that was stored by an earlier request with the same idempotency key.
    public static let idempotentReplayed = "Idempotent-Replayed"
    /// Seconds to wait before trying again, on 429, 409 (operation in progress) and 503.
    public static let retryAfter = "Retry-After"
    /// On 401: `Bearer realm="quire"`, with `error="invalid_token"` when a token was sent.
    public static let wwwAuthenticate = "WWW-Authenticate"
    /// `application/json` on request bodies.
    public static let contentType = "Content-Type"
    /// On 201: the path of the created article.
    public static let location = "Location"
    /// On `HEAD` and `GET /v1/blobs/{sha256}`: the blob's size in bytes (a `HEAD` answer has no body
    /// whose length would tell it).
    public static let blobSize = "Quire-Blob-Size"
    /// On 405: the methods the path accepts.
    public static let allow = "Allow"
}

/// Media types of sync bodies.
public enum SyncMediaType {
    /// Request bodies and successful answers.
    public static let json = "application/json"
    /// Every error answer (RFC 9457).
    public static let problem = "application/problem+json"
    /// Blob bodies (`/v1/blobs/{sha256}`): the attachment's bytes as they are.
    public static let octetStream = "application/octet-stream"
}
