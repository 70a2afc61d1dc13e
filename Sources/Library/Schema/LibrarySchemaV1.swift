import ObjectGraph

extension LibrarySchema {
    /// Schema version 1, the first shipped: its structure, without classes, exactly as V1 stores
    /// were written. Never change it; a later version is a new schema and a migration.
    ///
    /// - `Article`: the writer's article. Derived `sortTitle` (folded title, for an indexed sort by
    ///   title), `excerpt` and `wordCount` are kept current by ``LocalChanges``. Sync fields:
    ///   `serverRevision` (nil until first synced), `localRevision`, `syncState`. The indexes serve
    ///   the list's sort orders (updated, created, title) within each filter (all, folder,
    ///   favorites, trash). FTS5 indexes `title` and `body`.
    /// - `ArticleBase`: the last synced content of an article, the base of a three-way merge, keyed
    ///   by the article's ID (not a relationship) so that it outlives an emptied trash until the
    ///   server acknowledged the delete.
    /// - `Folder`, `Tag`: names, unique.
    /// - `DraftRecovery`: the editor's text at most two seconds old, one row per article.
    /// - `SyncOperation`: the outbox; each field of SyncClient's `OutboxEntry` and `OperationState`
    ///   has a column, keyed by article ID so that a delete outlives its article.
    /// - `Conflict`: base, local and remote versions as JSON `ArticleContent` (nil: deleted).
    /// - `SyncCursor`: the change-feed position per server; `SyncLease`: which process pushes.
    public static let v1 = Schema(version: 1, entities: [
        EntityDescription(
            "Article",
            attributes: [
                AttributeDescription("id", .uuid, unique: true),
                AttributeDescription("title", .string, default: ""),
                AttributeDescription("sortTitle", .string, default: ""),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("excerpt", .string, default: ""),
                AttributeDescription("wordCount", .integer64, default: 0),
                AttributeDescription("favorite", .boolean, default: false),
                AttributeDescription("created", .date),
                AttributeDescription("updated", .date),
                AttributeDescription("status", .string, default: "draft"),
                AttributeDescription("trashed", .date, optional: true),
                AttributeDescription("serverRevision", .integer64, optional: true),
                AttributeDescription("localRevision", .integer64, default: 0),
                AttributeDescription("syncState", .string, default: "localOnly", indexed: true),
            ],
            relationships: [
                .toOne("folder", "Folder", inverse: "articles"),
                .toMany("tags", "Tag", inverse: "articles"),
                .toMany("drafts", "DraftRecovery", inverse: "article", deleteRule: .cascade),
            ],
            indexes: [
                ["trashed", "updated"], ["trashed", "created"], ["trashed", "sortTitle"],
                ["folder", "trashed", "updated"], ["favorite", "trashed", "updated"],
            ],
            fullTextIndex: FullTextIndex(["title", "body"])),
        EntityDescription(
            "ArticleBase",
            attributes: [
                AttributeDescription("articleID", .uuid, unique: true),
                AttributeDescription("revision", .integer64),
                AttributeDescription("title", .string, default: ""),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("folder", .string, optional: true),
                AttributeDescription("tags", .json, default: "[]"),
                AttributeDescription("status", .string, default: "draft"),
                AttributeDescription("favorite", .boolean, default: false),
                AttributeDescription("serverUpdated", .date, optional: true),
            ]),
        EntityDescription(
            "Folder",
            attributes: [
                AttributeDescription("name", .string, unique: true),
                AttributeDescription("created", .date),
            ],
            relationships: [.toMany("articles", "Article", inverse: "folder")]),
        EntityDescription(
            "Tag",
            attributes: [AttributeDescription("name", .string, unique: true)],
            relationships: [.toMany("articles", "Article", inverse: "tags")]),
        EntityDescription(
            "DraftRecovery",
            attributes: [
                AttributeDescription("title", .string, default: ""),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("saved", .date, indexed: true),
            ],
            relationships: [.toOne("article", "Article", inverse: "drafts", optional: false)],
            uniquenessConstraints: [["article"]]),
        EntityDescription(
            "SyncOperation",
            attributes: [
                AttributeDescription("operationID", .string, unique: true),
                AttributeDescription("articleID", .uuid, indexed: true),
                AttributeDescription("sequence", .integer64, unique: true),
                AttributeDescription("change", .string, default: "put"),
                AttributeDescription("payload", .json, optional: true),
                AttributeDescription("precondition", .string, optional: true),
                AttributeDescription("baseRevision", .integer64, optional: true),
                AttributeDescription("state", .string, default: "pending", indexed: true),
                AttributeDescription("attempt", .integer64, default: 0),
                AttributeDescription("nextAttempt", .date, optional: true),
                AttributeDescription("acknowledgedRevision", .integer64, optional: true),
                AttributeDescription("failure", .string, optional: true),
                AttributeDescription("leaseOwner", .string, optional: true),
                AttributeDescription("leaseExpires", .date, optional: true),
                AttributeDescription("created", .date),
            ]),
        EntityDescription(
            "Conflict",
            attributes: [
                AttributeDescription("id", .uuid, unique: true),
                AttributeDescription("articleID", .uuid, indexed: true),
                AttributeDescription("base", .json, optional: true),
                AttributeDescription("local", .json, optional: true),
                AttributeDescription("remote", .json, optional: true),
                AttributeDescription("baseRevision", .integer64, optional: true),
                AttributeDescription("remoteRevision", .integer64, optional: true),
                AttributeDescription("detected", .date),
                AttributeDescription("resolution", .string, optional: true),
                AttributeDescription("resolved", .date, optional: true, indexed: true),
            ]),
        EntityDescription(
            "SyncCursor",
            attributes: [
                AttributeDescription("server", .string, unique: true),
                AttributeDescription("cursor", .integer64, default: 0),
                AttributeDescription("lastSynced", .date, optional: true),
            ]),
        EntityDescription(
            "SyncLease",
            attributes: [
                AttributeDescription("name", .string, unique: true),
                AttributeDescription("owner", .string),
                AttributeDescription("expires", .date),
            ]),
    ])
}
