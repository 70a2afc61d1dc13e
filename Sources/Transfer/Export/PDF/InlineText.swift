import Library

import CPangoCairo

/// The inline content of one block (paragraph, heading, table cell) as text plus Pango attributes,
/// and the byte ranges of its links, ready for a PangoLayout.
struct InlineText {
    /// A Pango attribute to apply to a byte range of ``text``.
    enum Style {
        case bold, italic, monospace, strikethrough, link, codeBackground
    }

    struct Span {
        let style: Style
        let range: Range<Int>
    }

    struct Link {
        let url: String
        let range: Range<Int>
    }

    private(set) var text = ""
    private(set) var spans: [Span] = []
    private(set) var links: [Link] = []

    /// Images of attachments, which the typesetter draws after the text, are left out.
    private var leavesOutAttachmentImages = false

    /// Collects the inline children of `node`; with `leavingOutAttachmentImages`, images of
    /// attachments (``isAttachmentImage(_:)``) add nothing.
    init(_ node: MarkdownNode, leavingOutAttachmentImages: Bool = false) {
        leavesOutAttachmentImages = leavingOutAttachmentImages
        for child in node.children { append(child) }
    }

    /// Whether `node` is an image of an attachment (`![…](attachment:…)`).
    static func isAttachmentImage(_ node: MarkdownNode) -> Bool {
        node.kind == .image && AttachmentReference(uri: node.url) != nil
    }

    /// The images of attachments among the inline content of `node`, at any depth (inside a link
    /// or emphasis too), in order.
    static func attachmentImages(in node: MarkdownNode) -> [MarkdownNode] {
        node.children.flatMap { isAttachmentImage($0) ? [$0] : attachmentImages(in: $0) }
    }

    /// Plain text, as for a list marker or a page number.
    init(plain: String) { text = plain }

    private var position: Int { text.utf8.count }

    private mutating func append(_ node: MarkdownNode) {
        let start = position
        switch node.kind {
        case .text: text += node.literal
        case .softBreak: text += " "
        case .lineBreak: text += "\u{2028}"
        case .code:
            text += node.literal
            spans.append(Span(style: .monospace, range: start..<position))
            spans.append(Span(style: .codeBackground, range: start..<position))
        case .emphasis:
            node.children.forEach { append($0) }
            spans.append(Span(style: .italic, range: start..<position))
        case .strong:
            node.children.forEach { append($0) }
            spans.append(Span(style: .bold, range: start..<position))
        case .strikethrough:
            node.children.forEach { append($0) }
            spans.append(Span(style: .strikethrough, range: start..<position))
        case .link:
            node.children.forEach { append($0) }
            spans.append(Span(style: .link, range: start..<position))
            if Self.isSafeLinkTarget(node.url), position > start {
                links.append(Link(url: node.url, range: start..<position))
            }
        case .image where leavesOutAttachmentImages && Self.isAttachmentImage(node):
            break
        case .image:
            // Other images (and attachments' outside paragraphs) are not drawn; their description
            // stands in, marked as such.
            let description = node.plainText
            text += description.isEmpty ? "[image]" : "[image: \(description)]"
            spans.append(Span(style: .italic, range: start..<position))
        case .htmlInline:
            // Raw HTML is suppressed in every export, as in cmark-gfm's safe HTML.
            break
        default:
            node.children.forEach { append($0) }
        }
    }

    /// Links that a PDF may open: web and mail addresses. Anything else (`javascript:`, `file:`,
    /// relative paths that mean nothing outside the library) stays plain text.
    static func isSafeLinkTarget(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return ["http://", "https://", "mailto:", "ftp://"].contains { lowered.hasPrefix($0) }
    }

    /// A Pango attribute list for the spans, colours from `style`.
    func attributeList(style: PDFStyle) -> OpaquePointer {
        let list = pango_attr_list_new()!
        for span in spans {
            let attributes: [UnsafeMutablePointer<PangoAttribute>?]
            switch span.style {
            case .bold: attributes = [pango_attr_weight_new(PANGO_WEIGHT_BOLD)]
            case .italic: attributes = [pango_attr_style_new(PANGO_STYLE_ITALIC)]
            case .monospace:
                attributes = [
                    pango_attr_family_new(style.monospaceFamily),
                    pango_attr_scale_new(style.codeSize / style.bodySize),
                ]
            case .strikethrough: attributes = [pango_attr_strikethrough_new(1)]
            case .link:
                attributes = [
                    pango_attr_foreground_new(Self.channel(style.link.red), Self.channel(style.link.green), Self.channel(style.link.blue)),
                    pango_attr_underline_new(PANGO_UNDERLINE_SINGLE),
                ]
            case .codeBackground:
                let color = style.codeBackground
                attributes = [pango_attr_background_new(Self.channel(color.red), Self.channel(color.green), Self.channel(color.blue))]
            }
            for case let attribute? in attributes {
                attribute.pointee.start_index = UInt32(span.range.lowerBound)
                attribute.pointee.end_index = UInt32(span.range.upperBound)
                pango_attr_list_insert(list, attribute)
            }
        }
        return list
    }

    private static func channel(_ value: Double) -> UInt16 { UInt16((value * 65535).rounded()) }
}
