import SyncProtocol

/// How exported documents show titles and statuses to readers.
enum DisplayTitle {
    /// What a document shows for an article (or a document) whose title is empty.
    static let untitled = "Untitled"

    /// `title` with control characters as spaces, or "Untitled" when nothing visible remains.
    static func of(_ title: String) -> String {
        let cleaned = String(String.UnicodeScalarView(title.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        return cleaned.allSatisfy(\.isWhitespace) ? untitled : cleaned
    }

    /// The status as a reader sees it.
    static func of(_ status: ArticleStatus) -> String {
        switch status {
        case .draft: "Draft"
        case .ready: "Ready"
        case .published: "Published"
        }
    }
}
