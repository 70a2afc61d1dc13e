import SyncProtocol

/// How exported documents show titles and statuses to readers.
package enum DisplayTitle {
    /// What a document shows for an article (or a document) whose title is empty.
    package static let untitled = "Untitled"

    /// `title` with control characters as spaces, or "Untitled" when nothing visible remains.
    package static func of(_ title: String) -> String {
        let cleaned = String(String.UnicodeScalarView(title.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        return cleaned.allSatisfy(\.isWhitespace) ? untitled : cleaned
    }

    /// The status as a reader sees it.
    package static func of(_ status: ArticleStatus) -> String {
        switch status {
        case .draft: "Draft"
        case .ready: "Ready"
        case .published: "Published"
        }
    }
}
