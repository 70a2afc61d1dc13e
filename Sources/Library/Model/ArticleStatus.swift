/// Where an article stands in the writer's workflow.
///
/// The raw values are the words written to Markdown front matter and JSON archives, so they are
/// part of the file formats: add cases, never rename them.
public enum ArticleStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Still being written.
    case draft
    /// Finished and waiting to be published.
    case ready
    /// Out in the world.
    case published
}
