import SyncProtocol

/// The paths the server answers, parsed from a request path.
enum Route: Hashable, Sendable {
    case health
    case articles
    case article(id: String)
    case changes
    case operation(key: String)

    /// The route of `path`, or nil when no route has its shape. IDs and keys are checked later,
    /// so that a malformed one gets 400 naming it rather than 404.
    init?(path: String) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= 3, segments[0] == "", segments[1] == "v\(SyncPath.version)",
              segments.dropFirst().allSatisfy({ !$0.isEmpty })
        else { return nil }
        switch (segments[2], segments.count) {
        case ("health", 3): self = .health
        case ("articles", 3): self = .articles
        case ("articles", 4): self = .article(id: segments[3])
        case ("changes", 3): self = .changes
        case ("operations", 4): self = .operation(key: segments[3])
        default: return nil
        }
    }

    /// The methods the route accepts (`Allow` on 405).
    var methods: [String] {
        switch self {
        case .article: return ["GET", "PUT", "DELETE"]
        case .health, .articles, .changes, .operation: return ["GET"]
        }
    }

    /// The route as the OpenAPI document writes it.
    var template: String {
        switch self {
        case .health: return SyncPath.health
        case .articles: return SyncPath.articles
        case .article: return SyncPath.article("{id}")
        case .changes: return SyncPath.changes
        case .operation: return SyncPath.operation("{key}")
        }
    }

    /// Every route with a sample path, for the test that compares the server with the contract.
    static let all: [Route] = [.health, .articles, .article(id: "id"), .changes, .operation(key: "key")]
}
