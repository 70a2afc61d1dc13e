/// What went wrong, as the `type` URI of a problem: `urn:quire:problem:<name>`.
///
/// Clients decide by the type, never by `title` or `detail`, which are for people. The set is
/// open: a newer server may send a type this build does not name.
public struct ProblemType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The URI, `urn:quire:problem:<name>`.
    public var rawValue: String

    /// The type with this URI, known to this build or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    private init(_ name: String) { rawValue = "urn:quire:problem:\(name)" }

    /// The URI.
    public var description: String { rawValue }

    /// Reads the URI from a JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the URI as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// 400: the body is not JSON, or not a JSON object.
    public static let malformedJSON = ProblemType("malformedJSON")
    /// 400: a field, header or query parameter is missing or wrong; `field` names it.
    public static let invalidField = ProblemType("invalidField")
    /// 401: no token, or a token the server does not know or that was revoked.
    public static let unauthorized = ProblemType("unauthorized")
    /// 404: no such article, operation or path. For an article, `current` holds its tombstone
    /// when it was deleted.
    public static let notFound = ProblemType("notFound")
    /// 405: the path exists but not with this method; `Allow` lists the methods.
    public static let methodNotAllowed = ProblemType("methodNotAllowed")
    /// 409: the first request with this idempotency key is still running; retry after `Retry-After`.
    public static let operationInProgress = ProblemType("operationInProgress")
    /// 410: the cursor is older than the tombstone horizon, or not one this account's feed gave;
    /// resync from the snapshot (`/v1/articles`).
    public static let resyncRequired = ProblemType("resyncRequired")
    /// 412: the base revision is not the server's; `current` holds the server's version, or is
    /// absent when the server holds nothing under this ID.
    public static let staleRevision = ProblemType("staleRevision")
    /// 413: the body is larger than the server accepts (for a blob: than its per-blob limit).
    public static let payloadTooLarge = ProblemType("payloadTooLarge")
    /// 422: a blob's bytes do not hash to the SHA-256 its path names; nothing was stored.
    public static let blobDigestMismatch = ProblemType("blobDigestMismatch")
    /// 424: an article's body refers to blobs the account does not hold; `missingBlobs` lists
    /// them. Upload them (`PUT /v1/blobs/{sha256}`) and send the write again.
    public static let missingBlobs = ProblemType("missingBlobs")
    /// 507: storing the blob would take the account past its storage quota; nothing was stored.
    public static let quotaExceeded = ProblemType("quotaExceeded")
    /// 415: a body that is not `application/json`.
    public static let unsupportedMediaType = ProblemType("unsupportedMediaType")
    /// 422: the idempotency key was used before with another request.
    public static let idempotencyKeyReused = ProblemType("idempotencyKeyReused")
    /// 428: a write without `If-Match` or `If-None-Match`.
    public static let preconditionRequired = ProblemType("preconditionRequired")
    /// 429: over the token's rate limit; retry after `Retry-After`.
    public static let rateLimited = ProblemType("rateLimited")
    /// 431: the request headers are larger than the server accepts.
    public static let headersTooLarge = ProblemType("headersTooLarge")
    /// 500: a bug or a storage failure; the write did not happen. Safe to retry with the same key.
    public static let internalError = ProblemType("internalError")
    /// 503: the server is shutting down or its storage is unreachable; retry after `Retry-After`.
    public static let unavailable = ProblemType("unavailable")
}
