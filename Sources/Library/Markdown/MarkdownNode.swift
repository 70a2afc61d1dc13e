import CMark

/// A node of a parsed ``MarkdownDocument``, read through cmark-gfm's accessors. It keeps its
/// document alive, since cmark frees every node with the document.
package struct MarkdownNode {
    /// What a node is, core CommonMark and the GFM extensions Quire enables.
    package enum Kind: Equatable {
        case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading, thematicBreak
        case table, tableRow, tableCell
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, link, image, strikethrough
        case other
    }

    package let pointer: OpaquePointer
    private let document: MarkdownDocument

    package init(pointer: OpaquePointer, document: MarkdownDocument) {
        self.pointer = pointer
        self.document = document
    }

    package var kind: Kind {
        switch cmark_node_get_type(pointer) {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST: return .list
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK: return .codeBlock
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link
        case CMARK_NODE_IMAGE: return .image
        default:
            // Extension node types are registered at run time; their names are stable.
            switch typeName {
            case "table": return .table
            case "table_header", "table_row": return .tableRow
            case "table_cell": return .tableCell
            case "strikethrough": return .strikethrough
            case "tasklist": return .item
            default: return .other
            }
        }
    }

    private var typeName: String {
        cmark_node_get_type_string(pointer).map { String(cString: $0) } ?? ""
    }

    /// The children, first to last.
    package var children: [MarkdownNode] {
        var nodes: [MarkdownNode] = []
        var child = cmark_node_first_child(pointer)
        while let node = child {
            nodes.append(MarkdownNode(pointer: node, document: document))
            child = cmark_node_next(node)
        }
        return nodes
    }

    /// The text of a text, code, code block or HTML node.
    package var literal: String { cmark_node_get_literal(pointer).map { String(cString: $0) } ?? "" }
    /// The destination of a link or image.
    package var url: String { cmark_node_get_url(pointer).map { String(cString: $0) } ?? "" }
    /// The level of a heading, 1 to 6.
    package var headingLevel: Int { Int(cmark_node_get_heading_level(pointer)) }
    /// The Markdown line the node starts on, from 1 (0 when cmark does not know it).
    package var startLine: Int { Int(cmark_node_get_start_line(pointer)) }
    /// Whether a list is ordered.
    package var isOrderedList: Bool { cmark_node_get_list_type(pointer) == CMARK_ORDERED_LIST }
    /// The first number of an ordered list.
    package var listStart: Int { Int(cmark_node_get_list_start(pointer)) }
    /// Whether a list is tight (no blank lines between items).
    package var isTightList: Bool { cmark_node_get_list_tight(pointer) != 0 }
    /// For a task list item, whether it is checked; `nil` for an ordinary item.
    package var taskIsChecked: Bool? {
        typeName == "tasklist" ? cmark_gfm_extensions_get_tasklist_item_checked(pointer) : nil
    }
    /// Whether a table row is the header row.
    package var isTableHeader: Bool { typeName == "table_header" }
    /// The column alignments of a table: "l", "c", "r" or nothing per column.
    package var tableAlignments: [Character?] {
        let columns = Int(cmark_gfm_extensions_get_table_columns(pointer))
        guard let alignments = cmark_gfm_extensions_get_table_alignments(pointer) else {
            return Array(repeating: nil, count: columns)
        }
        return (0..<columns).map { alignments[$0] == 0 ? nil : Character(Unicode.Scalar(alignments[$0])) }
    }

    /// The node's text without markup: text, code and the text inside links and emphasis.
    package var plainText: String {
        switch kind {
        case .text, .code: return literal
        case .softBreak, .lineBreak: return " "
        default: return children.map(\.plainText).joined()
        }
    }
}

extension MarkdownDocument {
    /// The document node.
    package var rootNode: MarkdownNode { MarkdownNode(pointer: root, document: self) }
}
