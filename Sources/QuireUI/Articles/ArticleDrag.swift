import Foundation
import GtkKit

/// What a dragged article carries: its ID, as content of a type only Quire makes (so text
/// dragged from the editor or another program is never taken for an article). Rows of the
/// article list offer it; the sidebar's places take it.
@MainActor
enum ArticleDrag {
    /// The content type, registered once per process.
    static let contentType = DragContentType(named: "QuireArticleID")

    /// The content of a drag of the article with `id`.
    static func contentProvider(for id: UUID) -> Object {
        contentType.contentProvider(for: id.uuidString)
    }

    /// The article ID a dropped string names, or nil for anything else.
    static func articleID(in string: String) -> UUID? {
        UUID(uuidString: string)
    }
}
