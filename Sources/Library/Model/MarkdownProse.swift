import CMark
import Foundation

/// The text of a Markdown document as its reader sees it, read from cmark-gfm's parse
/// (``MarkdownDocument``, the parse every export and preview renders): the text and code spans of
/// each paragraph, heading and table cell with the markup gone, and each code block's code. Link
/// and image targets, raw HTML (never rendered: it becomes a comment) and thematic breaks are not
/// text. An image's description is, as a screen reader speaks it.
///
/// A YAML front matter block at the very top (as ``FrontMatter`` reads it: a mapping between `---`
/// lines) is the article's metadata, not its text, and is left out; a `---` rule that opens an
/// article and does not start a mapping YAML reads is Markdown.
enum MarkdownProse {
    /// What a block of text is: the excerpt reads headings and code differently from prose.
    enum Block {
        case prose, heading, code
    }

    /// A piece of the document's text, in document order.
    enum Piece {
        /// UTF-8 text of the block under way (valid only during the call). A soft or hard line
        /// break is a space.
        case text(UnsafeBufferPointer<UInt8>, Block)
        /// The end of a block: what follows is not part of the same word or line.
        case end(Block)
    }

    /// Calls `body` with each piece of `markdown`'s text. The text is handed over as cmark holds
    /// it, without copying, since the editor counts a long article after each pause in typing.
    static func read(_ markdown: String, _ body: (Piece) -> Void) {
        let document = MarkdownDocument(withoutFrontMatter(markdown))
        guard let iterator = cmark_iter_new(document.root) else { return }
        defer { cmark_iter_free(iterator) }
        var block = Block.prose
        func text(of node: OpaquePointer, in block: Block) {
            guard let literal = cmark_node_get_literal(node) else { return }
            let bytes = UnsafeRawPointer(literal).assumingMemoryBound(to: UInt8.self)
            body(.text(UnsafeBufferPointer(start: bytes, count: strlen(literal)), block))
        }
        var event = cmark_iter_next(iterator)
        while event != CMARK_EVENT_DONE {
            // The iterator yields a node on every event but the last.
            let node = cmark_iter_get_node(iterator)!
            let type = cmark_node_get_type(node)
            if event == CMARK_EVENT_ENTER {
                switch type {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                    text(of: node, in: block)
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    space.withUTF8Buffer { body(.text($0, block)) }
                case CMARK_NODE_HEADING:
                    block = .heading
                case CMARK_NODE_CODE_BLOCK:
                    // A leaf: the iterator gives no exit for it.
                    text(of: node, in: .code)
                    body(.end(.code))
                default:
                    break
                }
            } else if isBlock(type) {
                // A block's end ends its text: a paragraph, a heading, a table cell (an extension
                // node, so told by cmark's block bit rather than by a type of its own).
                body(.end(block))
                block = .prose
            }
            event = cmark_iter_next(iterator)
        }
    }

    private static let space: StaticString = " "

    private static func isBlock(_ type: cmark_node_type) -> Bool {
        type.rawValue & UInt32(CMARK_NODE_TYPE_MASK) == UInt32(CMARK_NODE_TYPE_PRESENT)
    }

    /// The Markdown after a front matter block, or all of it when it has none (or one that is
    /// not a mapping YAML reads).
    private static func withoutFrontMatter(_ markdown: String) -> String {
        guard markdown.hasPrefix("---"), let frontMatter = try? FrontMatter(splitting: markdown) else { return markdown }
        return String(frontMatter.body)
    }
}
