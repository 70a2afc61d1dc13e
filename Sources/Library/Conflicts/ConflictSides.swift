import Foundation
import Platform

/// What an open conflict is about, read from the article as it stands now and the server's version.
public enum ConflictKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Both sides changed the article.
    case editedOnBothSides
    /// This device deleted the article (it is in the trash, or gone) and the server changed it.
    case deletedHere
    /// This device changed the article and the server deleted it.
    case deletedOnServer
    /// Both sides deleted it: nothing is left to decide.
    case deletedOnBothSides

    /// How `quire conflicts` and the app name it (`--json` gives the case's raw value).
    public var phrase: TranslatableText {
        switch self {
        case .editedOnBothSides: TranslatableText("edited on both sides")
        case .deletedHere: TranslatableText("deleted here, edited on the server")
        case .deletedOnServer: TranslatableText("edited here, deleted on the server")
        case .deletedOnBothSides: TranslatableText("deleted on both sides")
        }
    }
}

/// The versions of a conflicted article as they stand now, and what follows from them: the kind
/// of conflict, whether the sides agree without the writer, and whether Keep Theirs must keep a
/// copy of this device's text. Pure; ``ConflictResolver`` and ``ConflictSnapshot`` read it, so
/// the dialog, `quire conflicts` and the resolution all see the same thing.
///
/// This device's side is the live article, never the version recorded when the conflict was
/// found: an edit, a restore or a move to the trash after that is part of it.
public struct ConflictSides: Sendable, Hashable {
    /// The content both sides started from, when known.
    public var base: ArticleContent?
    /// The article's content as it stands, in the library or in its trash; nil when it is gone.
    public var current: ArticleContent?
    /// Whether this device deleted the article: it is in the trash, or gone.
    public var isDeletedHere: Bool
    /// The server's version; nil when the server deleted the article.
    public var remote: ArticleContent?
    /// This device's version when the conflict was found; nil when it was deleted here then.
    public var localAtDetection: ArticleContent?

    /// The sides as given; contents are compared with their tags in the store's order.
    public init(
        base: ArticleContent?, current: ArticleContent?, isDeletedHere: Bool, remote: ArticleContent?,
        localAtDetection: ArticleContent?
    ) {
        self.base = base?.normalized
        self.current = current?.normalized
        self.isDeletedHere = isDeletedHere || current == nil
        self.remote = remote?.normalized
        self.localAtDetection = localAtDetection?.normalized
    }

    /// This device's version: the live article's content, nil when it is deleted here.
    public var local: ArticleContent? { isDeletedHere ? nil : current }

    /// What the conflict is about now.
    public var kind: ConflictKind {
        switch (local != nil, remote != nil) {
        case (true, true): .editedOnBothSides
        case (false, true): .deletedHere
        case (true, false): .deletedOnServer
        case (false, false): .deletedOnBothSides
        }
    }

    /// What both sides agree on without the writer.
    public enum Agreement: Sendable, Hashable {
        /// Both deleted the article.
        case deleted
        /// Both hold this content: equal, or merged cleanly against the base.
        case content(ArticleContent)
    }

    /// The agreement of the sides, or nil when the writer must decide: both deleted, equal content,
    /// or a clean three-way merge. A deletion against content always waits for the writer.
    public var agreement: Agreement? {
        switch (local, remote) {
        case (nil, nil):
            return .deleted
        case let (local?, remote?):
            return ArticleMerge.cleanMerge(base: base, mine: local, theirs: remote).map(Agreement.content)
        default:
            return nil
        }
    }

    /// Whether Keep Theirs keeps this device's text as "Title (conflicted copy)" before taking the
    /// server's version (``keepsCopy(replacingWith:)``). Never for a deletion on the server: Keep
    /// Theirs then moves the article, text and all, to the trash.
    public var keepTheirsKeepsCopy: Bool {
        guard let remote else { return false }
        return keepsCopy(replacingWith: remote)
    }

    /// Whether a resolution that gives the article `replacement` (the server's version, or a
    /// merged one) keeps this device's text as "Title (conflicted copy)" first: when the article's
    /// title or body, wherever it is (a trashed article's text counts too), is neither the
    /// replacement's, nor the server's, nor the base's, nor what it was when the conflict was
    /// found. Text saved after the conflict was found is never dropped; what the writer was shown
    /// at detection may be.
    public func keepsCopy(replacingWith replacement: ArticleContent) -> Bool {
        guard let current else { return false }
        let text = Text(current)
        return text != Text(replacement) && text != remote.map(Text.init) && text != base.map(Text.init)
            && text != localAtDetection.map(Text.init)
    }

    /// The part of the content whose loss loses writing: title and body.
    private struct Text: Equatable {
        let title: String
        let body: String

        init(_ content: ArticleContent) {
            title = content.title
            body = content.body
        }
    }
}

extension ArticleMerge {
    /// The content both sides settle on without the writer: either side when they are equal, else
    /// the clean three-way merge against `base` (none without a base), with its tags in the store's
    /// order. Nil when the writer must decide.
    public static func cleanMerge(base: ArticleContent?, mine: ArticleContent, theirs: ArticleContent) -> ArticleContent? {
        if mine.normalized == theirs.normalized { return mine.normalized }
        guard let base else { return nil }
        return ArticleMerge(base: base, mine: mine, theirs: theirs).mergedContent?.normalized
    }
}

extension ArticleContent {
    /// The same content with its tags once each, in the order the store lists them
    /// (``StoredArticle/tagNames``), so that contents that differ only in tag order compare equal.
    public var normalized: ArticleContent {
        var content = self
        content.tags = Array(Set(tags)).sorted { lhs, rhs in
            let (left, right) = (ArticleText.sortKey(lhs), ArticleText.sortKey(rhs))
            return left != right ? left < right : lhs < rhs
        }
        return content
    }
}
