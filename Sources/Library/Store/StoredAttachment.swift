import Foundation
import ObjectGraph

/// A file the writer put in an article, such as a pasted image: the `Attachment` entity (since
/// schema V5; named so beside Swift Testing's `Attachment`). The article's Markdown refers to it as `attachment:<sha256>/<file name>`
/// (``AttachmentReference``). ``Library/addAttachment(to:fileName:data:)`` adds one.
public final class StoredAttachment: ManagedObject {
    /// The domain identifier.
    @Attribute("id") public var id: UUID
    /// The name the file had (or one given to a pasted image), without folders.
    @Attribute("fileName") public var fileName: String
    /// Its media type, from its first bytes (``AttachmentMediaType``).
    @Attribute("mediaType") public var mediaType: String
    /// Its size in bytes.
    @Attribute("size") public var size: Int64
    /// The SHA-256 of its bytes, 64 lowercase hexadecimal digits: what references name.
    @Attribute("sha256") public var sha256: String
    /// When it was added.
    @Attribute("created") public var created: Date
    /// The article it belongs to.
    @ToOne("article") public var article: StoredArticle?

    /// Its bytes, read from the library (from their file when they are large); throws
    /// `ExternalBinaryError` when that file is missing or damaged.
    public func contents() throws -> Data {
        try binaryValue(forKey: "bytes") ?? Data()
    }

    /// What the writer and the app see of it, without its bytes.
    public var summary: AttachmentSummary {
        AttachmentSummary(
            id: id, article: article?.id, fileName: fileName, mediaType: mediaType, size: size, sha256: sha256, created: created)
    }
}

/// An attachment as a value, without its bytes.
public struct AttachmentSummary: Sendable, Hashable {
    public var id: UUID
    /// The article it belongs to (nil only for an object being deleted).
    public var article: UUID?
    public var fileName: String
    public var mediaType: String
    public var size: Int64
    public var sha256: String
    public var created: Date

    /// The reference the article's Markdown uses for it.
    public var reference: AttachmentReference { AttachmentReference(sha256: sha256, fileName: fileName) }
}
