import Foundation
import ObjectGraph

/// The editor's text of an article as it was at most two seconds before the app stopped, kept
/// apart from the article so that it can be offered back (restored or discarded) on the next
/// start. One row per article; deleting the article deletes it.
public final class DraftRecovery: ManagedObject {
    /// The title in the editor.
    @Attribute("title") public var title: String
    /// The body in the editor.
    @Attribute("body") public var body: String
    /// When the text was written.
    @Attribute("saved") public var saved: Date
    /// The article being edited.
    @ToOne("article") public var article: StoredArticle?
}
