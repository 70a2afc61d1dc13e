import SyncProtocol

/// The problems the server answers with, one title per type.
extension Problem {
    static func malformedJSON(_ detail: String) -> Problem {
        Problem(type: .malformedJSON, title: "The body is not a JSON object", status: 400, detail: detail)
    }

    static func invalidField(_ violation: FieldViolation) -> Problem {
        Problem(type: .invalidField, title: "A field is missing or invalid", status: 400,
                detail: violation.description, field: violation.field)
    }

    static func unauthorized(_ detail: String) -> Problem {
        Problem(type: .unauthorized, title: "A valid bearer token is required", status: 401, detail: detail)
    }

    static func notFound(_ detail: String) -> Problem {
        Problem(type: .notFound, title: "Not found", status: 404, detail: detail)
    }

    static func articleNotFound(_ id: String, current: ArticleChange?) -> Problem {
        let detail = current == nil ? "no article \(id)" : "article \(id) was deleted"
        return Problem(type: .notFound, title: "Not found", status: 404, detail: detail, current: current)
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> Problem {
        Problem(type: .methodNotAllowed, title: "Method not allowed", status: 405,
                detail: "\(method) is not one of \(allowed.joined(separator: ", "))")
    }

    static func operationInProgress(_ key: String) -> Problem {
        Problem(type: .operationInProgress, title: "A request with this idempotency key is running", status: 409,
                detail: "retry \(key) after Retry-After seconds")
    }

    static let resyncRequired = Problem(
        type: .resyncRequired, title: "The cursor cannot be continued; resync from /v1/articles", status: 410,
        detail: "the cursor is older than the tombstone horizon or was not given by this account's feed")

    static func staleRevision(current: ArticleChange?) -> Problem {
        let detail: String
        switch current {
        case nil: detail = "the server holds no article with this ID"
        case let current? where current.deleted: detail = "the article was deleted at revision \(current.revision)"
        case let current?: detail = "the server's revision is \(current.revision)"
        }
        return Problem(type: .staleRevision, title: "The base revision is not current", status: 412,
                       detail: detail, current: current)
    }

    static func payloadTooLarge(limit: Int) -> Problem {
        Problem(type: .payloadTooLarge, title: "The body is too large", status: 413,
                detail: "the body may be at most \(limit) bytes")
    }

    static let blobNotFound = Problem(type: .notFound, title: "Not found", status: 404, detail: "this account holds no blob with this SHA-256")

    static func blobTooLarge(limit: Int) -> Problem {
        Problem(type: .payloadTooLarge, title: "The body is too large", status: 413,
                detail: "this server keeps attachments of at most \(limit) bytes; this one is larger")
    }

    static func blobDigestMismatch(_ sha256: String, actual: String) -> Problem {
        Problem(type: .blobDigestMismatch, title: "The bytes do not match the blob's SHA-256", status: 422,
                detail: "the path names \(sha256) but the bytes sent hash to \(actual); nothing was stored",
                field: "sha256")
    }

    static func missingBlobs(_ digests: [String]) -> Problem {
        Problem(type: .missingBlobs, title: "The article refers to attachments the server does not have", status: 424,
                detail: "upload \(digests.count == 1 ? "this blob" : "these \(digests.count) blobs") with PUT /v1/blobs/{sha256} "
                    + "first, then send the article again: \(digests.joined(separator: ", "))",
                missingBlobs: digests)
    }

    static func quotaExceeded(size: Int, used: Int64, quota: Int64) -> Problem {
        Problem(type: .quotaExceeded, title: "The account's storage for attachments is full", status: 507,
                detail: "this attachment takes \(size) bytes, and the account's attachments already take \(used) of its "
                    + "\(quota) bytes; nothing was stored")
    }

    static func unsupportedMediaType(_ contentType: String?) -> Problem {
        Problem(type: .unsupportedMediaType, title: "The body must be application/json", status: 415,
                detail: "Content-Type was \(contentType.map { "'\($0)'" } ?? "absent")")
    }

    static func idempotencyKeyReused(_ key: String) -> Problem {
        Problem(type: .idempotencyKeyReused, title: "The idempotency key was used for another request", status: 422,
                detail: "key \(key) belongs to a request with another method, article, precondition or body")
    }

    static let preconditionRequired = Problem(
        type: .preconditionRequired, title: "A write needs If-Match or If-None-Match", status: 428,
        detail: "send If-Match: \"<revision>\" to update or delete, If-None-Match: * to create")

    static func rateLimited(retryAfter: Int) -> Problem {
        Problem(type: .rateLimited, title: "Too many requests", status: 429,
                detail: "retry after \(retryAfter) seconds")
    }

    static func headersTooLarge(limit: Int) -> Problem {
        Problem(type: .headersTooLarge, title: "The request headers are too large", status: 431,
                detail: "the headers may be at most \(limit) bytes")
    }

    static let internalError = Problem(
        type: .internalError, title: "The server failed", status: 500,
        detail: "nothing was written; retrying with the same idempotency key is safe")

    static func unavailable(_ detail: String) -> Problem {
        Problem(type: .unavailable, title: "The server is unavailable", status: 503, detail: detail)
    }
}
