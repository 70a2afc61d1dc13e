import ObjectGraph

extension LibrarySchema {
    /// Every shipped version, oldest first, and the stages between them: what
    /// ``Library/open(at:options:progress:)`` migrates a library written by an older Quire with.
    /// A new version adds its schema and one stage here (and the fixture of the version it
    /// replaces, see `Tests/LibraryTests/Fixtures/README.md`).
    ///
    /// `batchSize` is the number of articles a custom stage changes per transaction;
    /// `defaultLanguage` is the language articles from before V4 get.
    public static func migrationPlan(batchSize: Int = 1000, defaultLanguage: String = ArticleLanguage.preferred) -> MigrationPlan {
        do {
            return try MigrationPlan(
                schemas: [v1, v2, v3, v4, v5, v6],
                stages: [v1ToV2(batchSize: batchSize), v2ToV3(), v3ToV4(defaultLanguage: defaultLanguage, batchSize: batchSize), v4ToV5(), v5ToV6()])
        } catch {
            // The plan is code: a test builds it, so a mistake never ships.
            preconditionFailure("the library's migration plan is invalid: \(error)")
        }
    }
}
