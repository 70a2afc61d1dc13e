import Foundation
import Platform
import ObjectGraph

/// An earlier title and body of an article: one entry of its version history (schema V3).
///
/// Local to this library: never synced, keyed by the article's ID (like ``ArticleBase``) so that
/// recording one leaves the article's row, its revision and its outbox alone. Only
/// ``VersionHistory`` writes them; the writer restores one as a normal edit
/// (``Library/restoreVersion(_:)``), which never changes the history itself.
public final class ArticleVersion: ManagedObject {
    /// The version's own identifier (what `quire restore-version` names).
    @Attribute("id") public internal(set) var id: UUID
    /// The article it is a version of.
    @Attribute("articleID") public internal(set) var articleID: UUID
    /// When it was recorded.
    @Attribute("recorded") public internal(set) var recorded: Date
    /// Why it was recorded.
    @Attribute("source") public internal(set) var source: ArticleVersionSource
    /// The title then.
    @Attribute("title") public internal(set) var title: String
    /// The body then.
    @Attribute("body") public internal(set) var body: String
    /// Bytes of title and body (UTF-8): what the history's size limit counts.
    @Attribute("size") public internal(set) var size: Int
    /// Words in the body then.
    @Attribute("wordCount") public internal(set) var wordCount: Int

    /// The version as a value.
    public var snapshot: ArticleVersionSnapshot {
        ArticleVersionSnapshot(
            id: id, articleID: articleID, recorded: recorded, source: source, title: title, body: body, size: size,
            wordCount: wordCount)
    }
}

/// Why a version was recorded: what the History panel shows as its source.
public enum ArticleVersionSource: String, Sendable, Hashable, Codable, CaseIterable, AttributeValue {
    /// An editing session on this device ended (switching article, quitting, a long pause, `quire edit`).
    case edited
    /// A sync brought in this text from another device.
    case synced
    /// The text as it was before a conflict's resolution replaced it.
    case beforeConflict
    /// The text as it was before an import replaced it.
    case beforeImport
    /// The text as it was before an earlier version was restored over it.
    case beforeRestore

    /// The source in a few words, for the writer (`--json` gives the case's raw value).
    public var label: TranslatableText {
        switch self {
        case .edited: TranslatableText("this device")
        case .synced: TranslatableText("synced")
        case .beforeConflict: TranslatableText("before conflict")
        case .beforeImport: TranslatableText("before import")
        case .beforeRestore: TranslatableText("before restore")
        }
    }
}

/// One version of an article as a value (``ArticleVersion``).
public struct ArticleVersionSnapshot: Sendable, Hashable, Codable, Identifiable {
    /// The version's identifier.
    public var id: UUID
    /// The article it belongs to.
    public var articleID: UUID
    /// When it was recorded.
    public var recorded: Date
    /// Why it was recorded.
    public var source: ArticleVersionSource
    /// The title then.
    public var title: String
    /// The body then.
    public var body: String
    /// Bytes of title and body.
    public var size: Int
    /// Words in the body.
    public var wordCount: Int

    /// A version; `size` and `wordCount` are derived from the text.
    public init(id: UUID = UUID(), articleID: UUID, recorded: Date, source: ArticleVersionSource, title: String, body: String) {
        self.init(
            id: id, articleID: articleID, recorded: recorded, source: source, title: title, body: body,
            size: title.utf8.count + body.utf8.count, wordCount: ArticleText.wordCount(of: body))
    }

    init(id: UUID, articleID: UUID, recorded: Date, source: ArticleVersionSource, title: String, body: String, size: Int, wordCount: Int) {
        self.id = id
        self.articleID = articleID
        self.recorded = recorded
        self.source = source
        self.title = title
        self.body = body
        self.size = size
        self.wordCount = wordCount
    }
}
