import ObjectGraph

extension LibrarySchema {
    /// Schema version 6: V5 with the articles' full-text index keeping the first letter of every
    /// word besides the words (FTS5 `prefix='1'`), so that the search as you type answers its
    /// first letter from one list instead of merging the lists of every word that starts with it
    /// (at 100,000 articles `t` took 224–274 ms, 156 of them in FTS5; 87 ms with the prefix
    /// index, for 6 % more file). Never change it; a later version is a new schema and a migration.
    public static let v6: Schema = {
        var schema = v5
        schema.version = 6
        let article = schema.entities.firstIndex { $0.name == "Article" }!
        schema.entities[article].fullTextIndex = FullTextIndex(["title", "body"], prefixLengths: [1])
        return schema
    }()

    /// V5 to V6: only the full-text index changes, and an index is derived data: the stage drops
    /// it and builds it again from the articles' text (the rows are not touched).
    public static func v5ToV6() -> MigrationStage {
        .lightweight(from: v5, to: v6)
    }
}
