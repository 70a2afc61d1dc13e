/// Where an article is in the writer's process.
public enum ArticleStatus: String, Codable, Sendable, CaseIterable {
    case draft
    case ready
    case published
}
