import SyncProtocol

/// The paths the server answers, parsed from the raw request path.
enum Route: Hashable, Sendable {
    case health
    /// `/metrics`, for operators (not part of the sync API).
    case metrics
    case articles
    case article(id: String)
    case changes
    case operation(key: String)
    case blob(sha256: String)

    /// The route of `target`'s path, or nil when no route has its shape. Each segment is decoded
    /// on its own (see `RequestTarget`); IDs and keys are checked later, so that a malformed one
    /// gets 400 naming it rather than 404. A segment whose escapes are malformed stays encoded,
    /// which no ID check accepts.
    init?(_ target: RequestTarget) {
        guard let segments = target.segments else { return nil }
        if segments == ["metrics"] {
            self = .metrics
            return
        }
        guard segments.count >= 2, segments[0] == "v\(SyncPath.version)", segments.allSatisfy({ !$0.isEmpty }) else {
            return nil
        }
        let decoded = { (segment: Substring) in RequestTarget.percentDecoded(segment) ?? String(segment) }
        switch (segments[1], segments.count) {
        case ("health", 2): self = .health
        case ("articles", 2): self = .articles
        case ("articles", 3): self = .article(id: decoded(segments[2]))
        case ("changes", 2): self = .changes
        case ("operations", 3): self = .operation(key: decoded(segments[2]))
        case ("blobs", 3): self = .blob(sha256: decoded(segments[2]))
        default: return nil
        }
    }

    /// The methods the route accepts (`Allow` on 405). Every route that reads answers HEAD too.
    var methods: [String] {
        switch self {
        case .article: return ["GET", "HEAD", "PUT", "DELETE"]
        case .blob: return ["GET", "HEAD", "PUT"]
        case .health, .metrics, .articles, .changes, .operation: return ["GET", "HEAD"]
        }
    }

    /// The route as the OpenAPI document writes it.
    var template: String {
        switch self {
        case .health: return SyncPath.health
        case .metrics: return "/metrics"
        case .articles: return SyncPath.articles
        case .article: return SyncPath.article("{id}")
        case .changes: return SyncPath.changes
        case .operation: return SyncPath.operation("{key}")
        case .blob: return SyncPath.blob("{sha256}")
        }
    }

    /// Every route of the sync API with a sample path, for the test that compares the server with
    /// the contract (`/metrics` is for operators, not in it).
    static let all: [Route] = [.health, .articles, .article(id: "id"), .changes, .operation(key: "key"), .blob(sha256: "sha256")]
}
