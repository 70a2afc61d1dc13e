import ObjectGraph

extension LibrarySchema {
    /// Schema version 4: V3 and, on `Article`, its `language` (the dictionary tag the spell
    /// checker uses, `en_US`; on `ArticleBase` too, optional: a base from before V4 has none, so
    /// the language merges as mine), and `PersonalWord`, the writer's personal dictionary: the words
    /// they added, per language, kept in the library so that they move with it; and
    /// `IgnoredWord`, the words the writer told the spell checker to ignore in one article (local,
    /// not synced; deleted with the article). Never change it;
    /// a later version is a new schema and a migration.
    ///
    /// `language` is required and has no default on purpose: the stage from V3 (``v3ToV4``) gives
    /// every existing article the writer's default language, which only the opener knows.
    public static let v4: Schema = {
        var schema = v3
        schema.version = 4
        let article = schema.entities.firstIndex { $0.name == "Article" }!
        schema.entities[article].attributes.append(AttributeDescription("language", .string))
        let base = schema.entities.firstIndex { $0.name == "ArticleBase" }!
        schema.entities[base].attributes.append(AttributeDescription("language", .string, optional: true))
        schema.entities[article].relationships.append(.toMany("ignoredWords", "IgnoredWord", inverse: "article", deleteRule: .cascade))
        schema.entities.append(EntityDescription(
            "PersonalWord",
            attributes: [
                AttributeDescription("language", .string),
                AttributeDescription("word", .string),
            ],
            indexes: [["language", "word"]]))
        schema.entities.append(EntityDescription(
            "IgnoredWord",
            attributes: [AttributeDescription("word", .string)],
            relationships: [.toOne("article", "Article", inverse: "ignoredWords", optional: false)],
            uniquenessConstraints: [["article", "word"]]))
        return schema
    }()

    /// V3 to V4: every article gets `defaultLanguage`, `batchSize` articles per transaction; the
    /// personal dictionary starts empty. The stage's check: no article is left without a language.
    public static func v3ToV4(defaultLanguage: String, batchSize: Int = 1000) -> MigrationStage {
        .custom(
            "article languages", from: v3, to: v4,
            transforms: [
                EntityTransform(entity: "Article", reads: [], writes: ["language"], batchSize: batchSize) { row in
                    try row.set("language", .string(defaultLanguage))
                },
            ],
            checks: [
                MigrationCheck("every article has a language") { inspection in
                    var problems: [MigrationProblem] = []
                    try inspection.forEachRow(of: "Article", attributes: ["language"]) { key, values in
                        if (values[0].stringValue ?? "").isEmpty, problems.count < 20 {
                            problems.append(MigrationProblem(entity: "Article", property: "language", message: "row \(key) has no language"))
                        }
                    }
                    return problems
                },
            ])
    }
}
