import Foundation

/// A live article as the server holds it: the answer to `PUT` and `GET /v1/articles/{id}`, an
/// item of a snapshot page, and the `article` of a change.
///
/// On the wire the content's fields sit beside `id`, `revision` and `updatedAt`:
///
///     {"id": "5F0C…", "revision": 42, "updatedAt": "2026-03-01T09:30:00Z",
///      "title": "Notes", "body": "# Notes", "tags": ["travel"], "favorite": true}
public struct Article: Codable, Hashable, Sendable {
    /// The article's ID, chosen by the client (`SyncIdentifier`).
    public var id: String
    /// The server revision, also the article's strong `ETag`. It grows with every change of the
    /// article and is never reused for it, even after the article was deleted and recreated.
    public var revision: Int64
    /// When the server committed this revision (its clock, whole seconds on the wire).
    public var updatedAt: Date
    /// What the writer edits; on the wire its fields sit beside `id` and `revision`.
    public var content: ArticlePayload

    /// An article as the server answers with it.
    public init(id: String, revision: Int64, updatedAt: Date, content: ArticlePayload) {
        self.id = id
        self.revision = revision
        self.updatedAt = updatedAt
        self.content = content
    }

    private enum CodingKeys: String, CodingKey {
        case id, revision, updatedAt
    }

    /// Reads `id`, `revision` and `updatedAt`, and the content's fields from the same object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        revision = try container.decode(Int64.self, forKey: .revision)
        updatedAt = try container.decode(Date.self, forKey: .updatedAt)
        content = try ArticlePayload(from: decoder)
    }

    /// Writes the content's fields beside `id`, `revision` and `updatedAt`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(revision, forKey: .revision)
        try container.encode(updatedAt, forKey: .updatedAt)
        try content.encode(to: encoder)
    }
}
