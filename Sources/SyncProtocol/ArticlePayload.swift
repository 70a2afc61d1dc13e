/// What a writer edits in an article: the body of `PUT /v1/articles/{id}` and the fields of every
/// answer that carries an article.
///
/// A `PUT` replaces the whole content: an optional field left out is absent afterwards.
public struct ArticlePayload: Codable, Hashable, Sendable {
    /// The title; may be empty.
    public var title: String
    /// Markdown.
    public var body: String
    /// The folder's name; absent when the article is in no folder.
    public var folder: String?
    /// Tag names, in the writer's order.
    public var tags: [String]?
    /// Where the article is in the writer's process.
    public var status: ArticleStatus?
    /// Whether the writer marked the article as a favorite.
    public var favorite: Bool?
    /// The article's language, a spelling dictionary's tag (`en_US`); absent from older clients,
    /// which also ignore it (decoding skips unknown keys), and left out for servers from before
    /// ``ProtocolVersion/articleLanguage`` (``forProtocol(_:)``).
    public var language: String?

    /// Content with the given fields; optional ones left out are absent on the wire.
    public init(
        title: String, body: String, folder: String? = nil, tags: [String]? = nil,
        status: ArticleStatus? = nil, favorite: Bool? = nil, language: String? = nil
    ) {
        self.language = language
        self.title = title
        self.body = body
        self.folder = folder
        self.tags = tags
        self.status = status
        self.favorite = favorite
    }

    /// The JSON keys of the content, in the order the protocol lists them.
    public static let fieldNames = ["title", "body", "folder", "tags", "status", "favorite", "language"]

    /// Limits the server enforces on the fields beyond the request size; a client can check first.
    public enum Limits {
        /// UTF-8 bytes of `title`, of `folder` and of each tag.
        public static let maximumNameBytes = 4096
        /// Number of `tags`.
        public static let maximumTagCount = 256
        /// UTF-8 bytes of `language`.
        public static let maximumLanguageBytes = 64
    }

    /// The first field that breaks the protocol's rules, or nil when the content can be stored.
    ///
    /// No string may contain U+0000 (PostgreSQL text cannot hold it), and names stay within `Limits`.
    public func violation() -> FieldViolation? {
        func check(_ text: String, _ field: String, limit: Int?) -> FieldViolation? {
            if text.utf8.contains(0) { return FieldViolation(field: field, reason: "must not contain U+0000", rule: .containsNUL) }
            if let limit, text.utf8.count > limit {
                return FieldViolation(field: field, reason: "must be at most \(limit) UTF-8 bytes", rule: .longerThan(bytes: limit))
            }
            return nil
        }
        if let violation = check(title, "title", limit: Limits.maximumNameBytes) { return violation }
        if let violation = check(body, "body", limit: nil) { return violation }
        if let folder, let violation = check(folder, "folder", limit: Limits.maximumNameBytes) { return violation }
        if let language, let violation = check(language, "language", limit: Limits.maximumLanguageBytes) { return violation }
        if let tags {
            if tags.count > Limits.maximumTagCount {
                return FieldViolation(
                    field: "tags", reason: "must hold at most \(Limits.maximumTagCount) tags", rule: .moreTagsThan(Limits.maximumTagCount))
            }
            for (index, tag) in tags.enumerated() {
                if let violation = check(tag, "tags[\(index)]", limit: Limits.maximumNameBytes) { return violation }
            }
        }
        return nil
    }
}

/// A field of a request that cannot be accepted, and why; the `field` of a 400 problem.
public struct FieldViolation: Hashable, Sendable, CustomStringConvertible {
    /// The JSON path of the field (`title`, `tags[2]`) or the header name (`If-Match`).
    public var field: String
    /// Why, as words that follow the field's name: "must be a string".
    public var reason: String
    /// Which of the content rules of ``ArticlePayload/violation()`` it breaks, so that an app can
    /// say it in the writer's language (`reason` is English); nil for the server's other checks.
    public var rule: Rule?

    /// The content rules ``ArticlePayload/violation()`` checks.
    public enum Rule: Hashable, Sendable {
        /// The text holds U+0000.
        case containsNUL
        /// More UTF-8 bytes than the field may hold.
        case longerThan(bytes: Int)
        /// More tags than an article may carry.
        case moreTagsThan(Int)
    }

    /// A violation of `field`.
    public init(field: String, reason: String, rule: Rule? = nil) {
        self.field = field
        self.reason = reason
        self.rule = rule
    }

    /// `tags[2] must be a string`.
    public var description: String { "\(field) \(reason)" }
}
