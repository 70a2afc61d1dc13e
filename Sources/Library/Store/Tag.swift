import ObjectGraph

/// A tag, unique by name.
public final class Tag: ManagedObject {
    /// The name, unique in the library.
    @Attribute("name") public var name: String
    /// The articles that carry it.
    @ToMany("articles") public var articles: RelatedObjects<StoredArticle>
}
