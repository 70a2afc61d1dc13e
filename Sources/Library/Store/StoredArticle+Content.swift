import Foundation
import ObjectGraph

extension StoredArticle {
    /// Gives the article every field of `content` (only the values that differ are set): title,
    /// body, status, favorite, language (when the content states one), and the folder and tags
    /// by name, found or created in the article's context. For a local edit, ``LocalChanges/record(in:at:alsoChanged:)`` then does the rest;
    /// for content pulled from the server, call ``refreshDerivedFields()`` after it.
    public func setContent(_ content: ArticleContent, at now: Date = Library.now()) throws {
        guard let context = managedObjectContext else { throw ObjectGraphError.objectDetached(objectID) }
        var places = LibraryNames.Places(in: context)
        try setContent(content, at: now, places: &places)
    }

    /// ``setContent(_:at:)`` with the folder and tag found in `places`, which many articles
    /// saved together share (their context's).
    func setContent(_ content: ArticleContent, at now: Date, places: inout LibraryNames.Places) throws {
        if title != content.title { title = content.title }
        if body != content.body { body = content.body }
        if status != content.status { status = content.status }
        if isFavorite != content.isFavorite { isFavorite = content.isFavorite }
        if let language = content.language, language != self.language { self.language = language }
        let newFolder = try content.folder.map { try places.folder(named: $0, at: now) }
        if folder != newFolder { folder = newFolder }
        let newTags = try Set(content.tags.map { try places.tag(named: $0) })
        if Set(tags) != newTags { tags = RelatedObjects(newTags) }
    }

    /// Recomputes what the list shows from the title and body: the sort title, the excerpt, the
    /// word count (``ArticleText``) and the reading time (``ReadingTime``).
    public func refreshDerivedFields() {
        sortTitle = ArticleText.sortKey(title)
        (excerpt, wordCount) = ArticleText.summary(of: body)
        readingMinutes = ReadingTime.minutes(forWords: wordCount)
    }
}
