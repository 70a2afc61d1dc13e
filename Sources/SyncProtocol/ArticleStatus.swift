/// Where an article is in the writer's process.
public enum ArticleStatus: String, Codable, Sendable, CaseIterable {
    /// Being written.
    case draft
    /// Finished, waiting to be published.
    case ready
    /// Out in the world.
    case published
}
