import Foundation

/// A change the server refused for good (a terminal failure): the article, why, and when the edit
/// was saved. It blocks nothing (the article's later edits are still sent) and stays until the
/// writer dismisses it (``SyncWorker/dismissFailure(_:in:)``).
public struct SyncFailure: Sendable, Hashable, Identifiable {
    /// The outbox operation's ID.
    public var id: String
    /// The article.
    public var articleID: UUID
    /// The article's title, when it is still in the library.
    public var articleTitle: String?
    /// Why the server refused it.
    public var rejection: RequestRejection
    /// When the edit was saved.
    public var saved: Date
}
