import Foundation
import Library

/// One article an import read from a file, before it is compared with the library.
public struct ImportedArticle: Sendable, Hashable {
    /// The article as the file describes it. An article from a file without an `id` has a new one.
    public var article: ArticleSnapshot
    /// The file it came from.
    public var source: URL
    /// Whether the file named the article's ID (front matter `id`, or an archive), so that it may
    /// match an article already in the library.
    public var hasStoredID: Bool

    /// An article read from `source`.
    public init(article: ArticleSnapshot, source: URL, hasStoredID: Bool) {
        self.article = article
        self.source = source
        self.hasStoredID = hasStoredID
    }
}
