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
    /// The files the article brings: those of an archive, or those a Markdown file's relative
    /// references named (its text then refers to them as `attachment:` URIs).
    public var attachments: [AttachmentFile]

    /// An article read from `source`, with `attachments`.
    public init(article: ArticleSnapshot, source: URL, hasStoredID: Bool, attachments: [AttachmentFile] = []) {
        self.article = article
        self.source = source
        self.hasStoredID = hasStoredID
        self.attachments = attachments
    }
}
