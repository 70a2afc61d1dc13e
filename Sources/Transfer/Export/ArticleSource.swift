import Library

/// Where an export job takes its articles from, a batch at a time, so that exporting 10,000
/// articles never holds more than one batch in memory.
///
/// A job may walk the source more than once (a combined document writes its table of contents
/// first), so a source must answer the same way for the whole job: the store's source should fix
/// the ordered list of article IDs when the job starts and fetch each range of it on demand.
///
/// ```swift
/// struct StoreSource: ArticleSource {
///     let ids: [UUID]                       // fixed when the job starts, in export order
///     let store: ...
///     func articleCount() async throws -> Int { ids.count }
///     func articles(in range: Range<Int>) async throws -> [ArticleSnapshot] {
///         try await store.snapshots(for: Array(ids[range]))   // one fetch per batch
///     }
/// }
/// ```
public protocol ArticleSource: Sendable {
    /// How many articles the source yields.
    func articleCount() async throws -> Int
    /// The articles at positions `range` of the export order. An article deleted since the job
    /// started may be missing from the answer; the job exports what it gets.
    func articles(in range: Range<Int>) async throws -> [ArticleSnapshot]
}

/// A source over articles already in memory: a handful of selected articles, or tests.
public struct ArticleArraySource: ArticleSource {
    /// The articles, in export order.
    public let articles: [ArticleSnapshot]

    /// A source that yields `articles` in this order.
    public init(_ articles: [ArticleSnapshot]) { self.articles = articles }

    public func articleCount() async throws -> Int { articles.count }

    public func articles(in range: Range<Int>) async throws -> [ArticleSnapshot] {
        Array(articles[range.clamped(to: articles.indices)])
    }
}
