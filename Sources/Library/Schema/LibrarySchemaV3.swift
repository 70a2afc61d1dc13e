import ObjectGraph

extension LibrarySchema {
    /// Schema version 3: V2 and the articles' version history, `ArticleVersion` (``ArticleVersion``):
    /// earlier titles and bodies of an article, recorded when an editing session ends, when a sync
    /// brings in a remote change, and before a conflict resolution, an import or a restore replaces
    /// the text. Versions are local to this library (never synced), keyed by the article's ID like
    /// its merge base, and thinned as a backup tool thins its snapshots (``HistoryThinning``).
    /// `Article` gains an index for the status filter. Never change it; a later version is a new
    /// schema and a migration.
    ///
    /// Everything new is a new entity or an index, so the stage from V2 is lightweight (``v2ToV3``):
    /// a library from before starts with an empty history.
    public static let v3: Schema = {
        var schema = v2
        schema.version = 3
        let article = schema.entities.firstIndex { $0.name == "Article" }!
        schema.entities[article].indexes.append(["status", "trashed", "updated"])
        schema.entities.append(EntityDescription(
            "ArticleVersion",
            attributes: [
                AttributeDescription("id", .uuid, unique: true),
                AttributeDescription("articleID", .uuid),
                AttributeDescription("recorded", .date, indexed: true),
                AttributeDescription("source", .string, default: "edited"),
                AttributeDescription("title", .string, default: ""),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("size", .integer64, default: 0),
                AttributeDescription("wordCount", .integer64, default: 0),
            ],
            indexes: [["articleID", "recorded"]]))
        return schema
    }()

    /// V2 to V3: the history's table and the status index, nothing to fill.
    public static func v2ToV3() -> MigrationStage {
        .lightweight(from: v2, to: v3)
    }
}
