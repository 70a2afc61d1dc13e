/// An error answer, `application/problem+json` (RFC 9457) with Quire's extension members.
///
///     {"type": "urn:quire:problem:staleRevision", "title": "The base revision is not current",
///      "status": 412, "current": {"cursor": 57, "id": "5F0C…", "revision": 57, …}}
public struct Problem: Codable, Hashable, Sendable, Error {
    /// What went wrong; clients decide by it.
    public var type: ProblemType
    /// A short summary for people, the same for every problem of a type.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// An explanation of this occurrence for people; never contains article text or tokens.
    public var detail: String?
    /// For `invalidField`: the field (`title`, `tags[2]`), header (`If-Match`) or query parameter.
    public var field: String?
    /// For `staleRevision` and `notFound` on an article: the server's current version of it.
    public var current: ArticleChange?
    /// For `missingBlobs`: the SHA-256 digests the body refers to that the account lacks.
    public var missingBlobs: [String]?

    /// A problem as the server answers with it.
    public init(
        type: ProblemType, title: String, status: Int, detail: String? = nil, field: String? = nil,
        current: ArticleChange? = nil, missingBlobs: [String]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.field = field
        self.current = current
        self.missingBlobs = missingBlobs
    }
}
