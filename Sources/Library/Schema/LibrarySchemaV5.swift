import ObjectGraph

extension LibrarySchema {
    /// Schema version 5: V4 and `Attachment`, a file the writer put in an article (an image pasted,
    /// dropped or inserted): its article, file name, media type, size, SHA-256 and bytes, the bytes
    /// kept in a file beside the library from ``attachmentInlineLimit`` bytes up (ObjectGraph's
    /// external storage). Deleting an article deletes its attachments. Never change it; a later
    /// version is a new schema and a migration.
    public static let v5: Schema = {
        var schema = v4
        schema.version = 5
        let article = schema.entities.firstIndex { $0.name == "Article" }!
        schema.entities[article].relationships.append(.toMany("attachments", "Attachment", inverse: "article", deleteRule: .cascade))
        schema.entities.append(EntityDescription(
            "Attachment",
            attributes: [
                AttributeDescription("id", .uuid, unique: true),
                AttributeDescription("fileName", .string),
                AttributeDescription("mediaType", .string),
                AttributeDescription("size", .integer64),
                AttributeDescription("sha256", .string, indexed: true),
                AttributeDescription("created", .date),
                AttributeDescription("bytes", .binaryData, externalStorageThreshold: attachmentInlineLimit),
            ],
            relationships: [.toOne("article", "Article", inverse: "attachments", optional: false)]))
        return schema
    }()

    /// From this many bytes an attachment's bytes live in a file beside the library rather than in
    /// its row: small icons stay in the database, photographs do not bloat it.
    public static let attachmentInlineLimit = 64 * 1024

    /// V4 to V5: a new entity and relationship, nothing to convert.
    public static func v4ToV5() -> MigrationStage {
        .lightweight(from: v4, to: v5)
    }
}
