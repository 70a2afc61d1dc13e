import Foundation

/// Text the editor held for an article when the app stopped, which differs from the saved article:
/// what the next start offers back.
public struct RecoveredDraft: Sendable, Hashable, Identifiable {
    /// The article's ID (one draft per article).
    public var id: UUID { articleID }
    /// The article the text belongs to.
    public var articleID: UUID
    /// The title in the editor.
    public var title: String
    /// The body in the editor.
    public var body: String
    /// When the editor's text was written.
    public var saved: Date
    /// The article as saved, to compare with.
    public var article: ArticleSnapshot
}
