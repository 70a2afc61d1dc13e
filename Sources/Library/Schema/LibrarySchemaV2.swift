import ObjectGraph

extension LibrarySchema {
    /// Schema version 2: V1 and, on `Article`, a `subtitle` (optional, one line of plain text under
    /// the title) and `readingMinutes`, the estimated reading time derived from the word count
    /// (``ReadingTime``) and kept current with the other derived fields. Never change it; a later
    /// version is a new schema and a migration.
    ///
    /// `readingMinutes` is required and has no default on purpose: a lightweight migration could
    /// not fill it, so the stage from V1 (``v1ToV2``) computes it for every existing article.
    public static let v2: Schema = {
        var schema = v1
        schema.version = 2
        let article = schema.entities.firstIndex { $0.name == "Article" }!
        schema.entities[article].attributes += [
            AttributeDescription("subtitle", .string, optional: true),
            AttributeDescription("readingMinutes", .integer64),
        ]
        return schema
    }()

    /// V1 to V2: the new `subtitle` starts empty, and every article's reading time is computed
    /// from its word count, `batchSize` articles per transaction. The stage's check: every
    /// article's reading time is the one its word count gives.
    public static func v1ToV2(batchSize: Int = 1000) -> MigrationStage {
        .custom(
            "reading times", from: v1, to: v2,
            transforms: [
                EntityTransform(entity: "Article", reads: ["wordCount"], writes: ["readingMinutes"], batchSize: batchSize) { row in
                    let words = row.source("wordCount").integerValue ?? 0
                    try row.set("readingMinutes", .integer(Int64(ReadingTime.minutes(forWords: Int(words)))))
                },
            ],
            checks: [
                MigrationCheck("every reading time follows its word count") { inspection in
                    var problems: [MigrationProblem] = []
                    try inspection.forEachRow(of: "Article", attributes: ["wordCount", "readingMinutes"]) { key, values in
                        let words = Int(values[0].integerValue ?? 0)
                        if values[1].integerValue != Int64(ReadingTime.minutes(forWords: words)), problems.count < 20 {
                            problems.append(MigrationProblem(
                                entity: "Article", property: "readingMinutes",
                                message: "row \(key): \(values[1]) minutes for \(words) words"))
                        }
                    }
                    return problems
                },
            ])
    }
}
