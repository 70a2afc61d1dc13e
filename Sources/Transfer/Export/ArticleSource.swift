import Foundation
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
    /// The attachments `article` has or refers to, with their bytes, or with the problem that
    /// keeps them from being read (``AttachmentFile/problem``).
    func attachments(of article: ArticleSnapshot) async throws -> [AttachmentFile]
    /// Which of `articles` (a batch from ``articles(in:)``) have attachments of their own. The job
    /// asks ``attachments(of:)`` only for these and for articles whose text refers to an
    /// attachment, so that a batch of articles without any costs the source one question instead
    /// of one per article.
    func articlesWithAttachments(among articles: [ArticleSnapshot]) async throws -> Set<UUID>
}

extension ArticleSource {
    /// A source whose articles have no attachments.
    public func attachments(of article: ArticleSnapshot) async throws -> [AttachmentFile] { [] }

    /// Every article: the job asks ``attachments(of:)`` for each (right for any source; a source
    /// that can tell which articles have attachments says so instead).
    public func articlesWithAttachments(among articles: [ArticleSnapshot]) async throws -> Set<UUID> {
        Set(articles.map(\.id))
    }
}

/// A source over articles already in memory: a handful of selected articles, or tests.
public struct ArticleArraySource: ArticleSource {
    /// The articles, in export order.
    public let articles: [ArticleSnapshot]
    /// Files the articles' references may name, by SHA-256.
    public let files: [String: AttachmentFile]

    /// A source that yields `articles` in this order, whose references name some of `files`.
    public init(_ articles: [ArticleSnapshot], files: [AttachmentFile] = []) {
        self.articles = articles
        self.files = Dictionary(files.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The files the article refers to; a reference to none of them is unavailable.
    public func attachments(of article: ArticleSnapshot) async throws -> [AttachmentFile] {
        AttachmentReference.all(in: article.body).map {
            files[$0.sha256] ?? AttachmentFile(reference: $0, problem: "the export was given no such file")
        }
    }

    /// None: the files are the source's, not the articles' own; only references reach them.
    public func articlesWithAttachments(among articles: [ArticleSnapshot]) async throws -> Set<UUID> { [] }

    public func articleCount() async throws -> Int { articles.count }

    public func articles(in range: Range<Int>) async throws -> [ArticleSnapshot] {
        Array(articles[range.clamped(to: articles.indices)])
    }
}
