import ObjectGraph

/// A word the writer told the spell checker to ignore in one article (the `IgnoredWord` entity,
/// since schema V4): it stays unflagged whenever the article is open. Local to this library (not
/// synced, not part of the article's content); deleting the article deletes it.
/// ``Library/ignoreWordInViewContext(_:in:)`` adds one.
public final class IgnoredWord: ManagedObject {
    /// The word, as the writer wrote it.
    @Attribute("word") public var word: String
    /// The article it is ignored in.
    @ToOne("article") public var article: StoredArticle?
}
