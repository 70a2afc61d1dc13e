/// The paths of the sync protocol, version included, so that client and server build them alike.
///
///     let url = server.appending(path: SyncPath.article(article.id))
public enum SyncPath {
    /// The protocol's major version, the first path segment; a new major version gets new paths
    /// and the old ones keep working until no client needs them. Additions within it are counted
    /// by ``ProtocolVersion``.
    public static let version = 1

    /// `/v1`, the prefix of every path below.
    public static let prefix = "/v\(version)"

    /// `GET`: whether the server and its storage answer. The only path that needs no token.
    public static let health = "\(prefix)/health"

    /// `GET`: one page of the account's live articles ordered by ID, for a full resync.
    public static let articles = "\(prefix)/articles"

    /// `GET`: one page of the account's change feed, in commit order.
    public static let changes = "\(prefix)/changes"

    /// `GET`, `PUT`, `DELETE`: one article. `id` must satisfy `SyncIdentifier.isValid`.
    public static func article(_ id: String) -> String { "\(articles)/\(id)" }

    /// `GET`, `HEAD`, `PUT`: one blob of the account, named by the SHA-256 of its bytes in 64
    /// lower-case hex digits (``BlobReference/isDigest(_:)``).
    public static func blob(_ sha256: String) -> String { "\(prefix)/blobs/\(sha256)" }

    /// `GET`: the stored outcome of the write sent with `Idempotency-Key: key`.
    public static func operation(_ key: String) -> String { "\(prefix)/operations/\(key)" }

    /// The query parameter names of `changes` and `articles`.
    public enum Query {
        /// `changes`: the cursor after which changes are listed (`0` or absent: from the start).
        public static let since = "since"
        /// `articles`: the article ID after which the snapshot page starts (absent: from the start).
        public static let after = "after"
        /// Both: the largest page wanted. The server caps it at its maximum page size.
        public static let limit = "limit"
    }
}
