/// A heading of a Markdown text, as an outline lists it.
public struct MarkdownHeading: Sendable, Hashable {
    /// 1 for `#`, up to 6.
    public var level: Int
    /// The heading's text without markup.
    public var text: String
    /// The line it starts on, from 0 (a `GtkTextBuffer` line).
    public var line: Int

    /// A heading.
    public init(level: Int, text: String, line: Int) {
        self.level = level
        self.text = text
        self.line = line
    }
}

/// The outline of a Markdown text: its headings in order, as cmark-gfm reads them (a `#` inside
/// a code block or a paragraph is no heading; setext headings are).
public enum MarkdownOutline {
    /// The headings of `markdown`, top-level and inside quotes and lists alike.
    public static func headings(in markdown: String) -> [MarkdownHeading] {
        let document = MarkdownDocument(markdown)
        var headings: [MarkdownHeading] = []
        func visit(_ node: MarkdownNode) {
            for child in node.children {
                switch child.kind {
                case .heading:
                    headings.append(MarkdownHeading(level: child.headingLevel, text: child.plainText, line: max(0, child.startLine - 1)))
                case .blockQuote, .list, .item:
                    visit(child)
                default:
                    break
                }
            }
        }
        visit(document.rootNode)
        return headings
    }
}
