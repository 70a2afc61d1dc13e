import Foundation
import ObjectGraph

/// A folder of the library. Articles name their folder when they sync, so a folder is its name.
public final class Folder: ManagedObject {
    /// The name, unique in the library.
    @Attribute("name") public var name: String
    /// When it was created.
    @Attribute("created") public var created: Date
    /// The articles filed in it (trashed ones included).
    @ToMany("articles") public var articles: RelatedObjects<StoredArticle>
}
