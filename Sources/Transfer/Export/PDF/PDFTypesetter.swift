import CPangoCairo
import Foundation
import Library

/// Lays articles out on PDF pages with Pango from their cmark-gfm syntax tree: headings, paragraphs
/// with emphasis, strong, strikethrough, inline code and links, lists (bulleted, numbered, task
/// lists), block quotes, code blocks, tables and thematic breaks; raw HTML is left out. Images of
/// the article's attachments are drawn (``PDFImage``) below the text of their paragraph, as wide as
/// the text at most and never larger than their own size; one that cannot be drawn prints a line
/// naming its file and why. Other images show their description. Pages break between lines;
/// headings keep with the text that follows; table rows stay whole and a table's header row
/// repeats on each page. Every page gets its number.
///
/// With `isDrawing` false nothing is drawn: the typesetter only counts pages, with exactly the
/// layout the drawing pass will use, so that a combined PDF's contents can name page numbers.
final class PDFTypesetter {
    let isDrawing: Bool
    private let canvas: PDFCanvas
    private let style: PDFStyle
    private let pango: OpaquePointer
    private let outline: PDFOutline?
    private var fontDescriptions: [String: OpaquePointer] = [:]
    /// The attachments of the article being typeset, by SHA-256.
    private var attachments: [String: AttachmentFile] = [:]

    /// The page being filled, from 1.
    private(set) var pageNumber = 1
    private var y: Double
    private var pageHasContent = false
    private var pendingSpace = 0.0
    private var previousBars: [Double] = []
    private var pendingMarker: Marker?

    private var top: Double { style.marginTop }
    private var bottom: Double { canvas.paper.height - style.marginBottom }
    private var contentFrame: Frame {
        Frame(left: style.marginSide, width: canvas.paper.width - 2 * style.marginSide, bars: [], color: style.text, isTight: false)
    }

    /// Where a block's lines go: their left edge and width, the block-quote bars beside them, and
    /// their colour.
    private struct Frame {
        var left: Double
        var width: Double
        var bars: [Double]
        var color: PDFStyle.Color
        var isTight: Bool
        var listDepth = 0
    }

    /// A list item's bullet or number, drawn beside the first line that follows it.
    private struct Marker {
        let text: String
        let left: Double
        let width: Double
        let color: PDFStyle.Color
    }

    init(canvas: PDFCanvas, fonts: PDFFontMap, style: PDFStyle = PDFStyle(), drawing: Bool) {
        self.canvas = canvas
        self.style = style
        isDrawing = drawing
        pango = fonts.makeContext(for: canvas.cairo)
        outline = drawing ? PDFOutline(surface: canvas.surface) : nil
        y = style.marginTop
    }

    deinit {
        for font in fontDescriptions.values { pango_font_description_free(font) }
        g_object_unref(UnsafeMutableRawPointer(pango))
    }

    // MARK: Documents

    /// Starts a new page unless the current one is still empty.
    func startOnNewPage() {
        if pageHasContent { newPage() }
    }

    /// Typesets one article from the top of a new page: its title, a line of metadata and its body.
    /// The title becomes a top-level bookmark (open when `expandsBookmark`), its headings children,
    /// and, given a `destination` name, a named destination that contents entries can link to.
    func typesetArticle(
        _ article: ArticleSnapshot, attachments: [AttachmentFile], expandsBookmark: Bool, destination: String? = nil
    ) {
        self.attachments = Dictionary(attachments.map { ($0.sha256, $0) }, uniquingKeysWith: { first, _ in first })
        startOnNewPage()
        let title = DisplayTitle.of(article.title)
        outline?.add(title: title, level: 0, page: pageNumber, y: y, isOpen: expandsBookmark)
        if isDrawing, let destination {
            cairo_tag_begin(canvas.cairo, CAIRO_TAG_DEST, "name='\(destination)' x=0 y=\(String(format: "%.2f", max(0, y - 4)))")
            cairo_tag_end(canvas.cairo, CAIRO_TAG_DEST)
        }
        let frame = contentFrame
        place(InlineText(plain: title), font: font(style.headingFamily, size: style.titleSize, bold: true), frame: frame)
        var meta = [DisplayTitle.of(article.status)]
        if let folder = article.folder { meta.append(folder) }
        if !article.tags.isEmpty { meta.append(article.tags.joined(separator: ", ")) }
        meta.append("Updated " + Timestamp.string(from: article.updated).prefix(10))
        var metaFrame = frame
        metaFrame.color = style.muted
        place(InlineText(plain: meta.joined(separator: " · ")), font: font(style.headingFamily, size: style.metaSize), frame: metaFrame)
        rule(frame: frame, spaceAbove: 6, spaceBelow: 10)
        typesetBlocks(MarkdownDocument(article.body).rootNode.children, frame: frame)
    }

    /// Typesets a table of contents: `title`, then one line per entry with its page number, each a
    /// link to the named destination of its article.
    func typesetContents(title: String, entries: [(title: String, page: Int, destination: String)]) {
        startOnNewPage()
        let frame = contentFrame
        outline?.add(title: "Contents", level: 0, page: pageNumber, y: y, isOpen: false)
        place(InlineText(plain: DisplayTitle.of(title)), font: font(style.headingFamily, size: style.titleSize, bold: true), frame: frame)
        rule(frame: frame, spaceAbove: 6, spaceBelow: 10)
        let numberWidth = 44.0
        var titleFrame = frame
        titleFrame.width -= numberWidth
        let bodyFont = font(style.bodyFamily, size: style.bodySize)
        for entry in entries {
            addSpace(3)
            let number = entry.page
            var lastBaseline = 0.0
            // Cairo 1.16 drops links to pages that do not exist yet, so entries link to named
            // destinations, which the viewer resolves.
            place(InlineText(plain: DisplayTitle.of(entry.title)), font: bodyFont, frame: titleFrame) { lineTop, lineHeight, baseline in
                lastBaseline = baseline
                self.tag(link: "dest='\(entry.destination)'", rect: (frame.left, lineTop, frame.width, lineHeight))
            }
            if isDrawing {
                let layout = makeLayout(InlineText(plain: String(number)), font: bodyFont, width: numberWidth, alignment: PANGO_ALIGN_RIGHT)
                defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
                setColor(style.text)
                let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
                cairo_move_to(canvas.cairo, frame.left + titleFrame.width, lastBaseline - baseline)
                pango_cairo_show_layout(canvas.cairo, layout)
            }
        }
    }

    /// Ends the last page.
    func finish() {
        if isDrawing {
            drawFooter()
            cairo_show_page(canvas.cairo)
        }
    }

    // MARK: Blocks

    private func typesetBlocks(_ nodes: [MarkdownNode], frame: Frame) {
        for node in nodes { typesetBlock(node, frame: frame) }
    }

    private func typesetBlock(_ node: MarkdownNode, frame: Frame) {
        switch node.kind {
        case .paragraph:
            let images = InlineText.attachmentImages(in: node)
            let text = InlineText(node, leavingOutAttachmentImages: true)
            if images.isEmpty || text.text.contains(where: { !$0.isWhitespace }) {
                place(text, font: font(style.bodyFamily, size: style.bodySize), frame: frame, lineSpacing: style.lineSpacing)
                addSpace(frame.isTight ? 2 : style.paragraphSpacing)
            }
            for image in images { placeImage(image, frame: frame) }
        case .heading:
            let level = min(max(node.headingLevel, 1), 6)
            let headingFont = font(style.headingFamily, size: style.headingSizes[level - 1], bold: true, italic: level == 6)
            addSpace(style.headingSpaceBefore)
            // Keep the heading with about three lines of what follows.
            keepTogether(style.headingSizes[level - 1] * 1.4 + style.bodySize * 4.5)
            let title = node.plainText
            place(InlineText(node), font: headingFont, frame: frame) { lineTop, _, _ in
                if let outline = self.outline, !title.isEmpty {
                    outline.add(title: title, level: level, page: self.pageNumber, y: lineTop, isOpen: false)
                }
            }
            addSpace(style.headingSpaceAfter)
        case .codeBlock:
            addSpace(style.paragraphSpacing + style.codePadding)
            var literal = node.literal
            if literal.hasSuffix("\n") { literal.removeLast() }
            var codeFrame = frame
            codeFrame.left += style.codePadding
            codeFrame.width -= 2 * style.codePadding
            place(
                InlineText(plain: literal), font: font(style.monospaceFamily, size: style.codeSize), frame: codeFrame,
                background: (frame.left, frame.width, style.codePadding), wrapsAnywhere: true)
            addSpace(style.paragraphSpacing + style.codePadding)
        case .blockQuote:
            var inner = frame
            inner.bars.append(frame.left + 1.5)
            inner.left += style.quoteIndent
            inner.width -= style.quoteIndent
            inner.color = style.muted
            typesetBlocks(node.children, frame: inner)
        case .list:
            typesetList(node, frame: frame)
        case .thematicBreak:
            rule(frame: frame, spaceAbove: style.paragraphSpacing, spaceBelow: style.paragraphSpacing + 4)
        case .table:
            typesetTable(node, frame: frame)
            addSpace(style.paragraphSpacing)
        case .htmlBlock:
            break  // Raw HTML is suppressed in every export.
        default:
            typesetBlocks(node.children, frame: frame)
        }
    }

    private func typesetList(_ list: MarkdownNode, frame: Frame) {
        var number = list.listStart
        for item in list.children {
            let marker: String
            if let checked = item.taskIsChecked {
                marker = checked ? "\u{2611}" : "\u{2610}"
            } else if list.isOrderedList {
                marker = "\(number)."
            } else {
                marker = ["\u{2022}", "\u{25E6}", "\u{25AA}"][frame.listDepth % 3]
            }
            number += 1
            var inner = frame
            inner.left += style.listIndent
            inner.width -= style.listIndent
            inner.isTight = list.isTightList
            inner.listDepth = frame.listDepth + 1
            pendingMarker = Marker(text: marker, left: frame.left, width: style.listIndent - 5, color: frame.color)
            let children = item.children
            if children.isEmpty {
                place(InlineText(plain: ""), font: font(style.bodyFamily, size: style.bodySize), frame: inner)
            } else {
                typesetBlocks(children, frame: inner)
            }
            pendingMarker = nil
            addSpace(list.isTightList ? 2 : style.paragraphSpacing)
        }
        addSpace(style.paragraphSpacing)
    }

    private func typesetTable(_ table: MarkdownNode, frame: Frame) {
        let alignments = table.tableAlignments
        let columns = max(1, alignments.count)
        let rows = table.children.filter { $0.kind == .tableRow }
        guard !rows.isEmpty else { return }
        let bodyFont = font(style.bodyFamily, size: style.bodySize)
        let headerFont = font(style.bodyFamily, size: style.bodySize, bold: true)
        let padding = style.tableCellPadding
        let cells: [[InlineText]] = rows.map { row in
            let texts = row.children.map { InlineText($0) }
            return (0..<columns).map { $0 < texts.count ? texts[$0] : InlineText(plain: "") }
        }

        // Column widths: natural widths when they fit, otherwise shared out in proportion.
        var natural = [Double](repeating: 2 * padding + 12, count: columns)
        for (rowIndex, row) in cells.enumerated() {
            for (column, text) in row.enumerated() {
                let layout = makeLayout(text, font: rows[rowIndex].isTableHeader ? headerFont : bodyFont, width: nil)
                var width: Int32 = 0
                pango_layout_get_size(layout, &width, nil)
                g_object_unref(UnsafeMutableRawPointer(layout))
                natural[column] = max(natural[column], Double(width) / Double(PANGO_SCALE) + 2 * padding + 1)
            }
        }
        let naturalTotal = natural.reduce(0, +)
        let widths = naturalTotal <= frame.width
            ? natural
            : natural.map { max(2 * padding + 16, $0 * frame.width / naturalTotal) }

        let headerIndex = rows.firstIndex { $0.isTableHeader }
        var previousRowPage: Int?
        for (rowIndex, row) in rows.enumerated() {
            let isHeader = row.isTableHeader
            let rowFont = isHeader ? headerFont : bodyFont
            let height = rowHeight(cells[rowIndex], widths: widths, font: rowFont)
            applyPendingSpace()
            if y + height > bottom && pageHasContent { newPage() }
            if let headerIndex, !isHeader, let previousRowPage, previousRowPage != pageNumber {
                // The table goes on on a new page: repeat its header row.
                let headerHeight = rowHeight(cells[headerIndex], widths: widths, font: headerFont)
                drawRow(cells[headerIndex], widths: widths, alignments: alignments, font: headerFont, height: headerHeight, isHeader: true, frame: frame)
            }
            drawRow(cells[rowIndex], widths: widths, alignments: alignments, font: rowFont, height: height, isHeader: isHeader, frame: frame)
            previousRowPage = pageNumber
        }
    }

    private func rowHeight(_ cells: [InlineText], widths: [Double], font: OpaquePointer) -> Double {
        var height = 0.0
        for (column, text) in cells.enumerated() {
            let layout = makeLayout(text, font: font, width: widths[column] - 2 * style.tableCellPadding)
            var layoutHeight: Int32 = 0
            pango_layout_get_size(layout, nil, &layoutHeight)
            g_object_unref(UnsafeMutableRawPointer(layout))
            height = max(height, Double(layoutHeight) / Double(PANGO_SCALE))
        }
        return height + 2 * style.tableCellPadding
    }

    private func drawRow(
        _ cells: [InlineText], widths: [Double], alignments: [Character?], font: OpaquePointer, height: Double,
        isHeader: Bool, frame: Frame
    ) {
        defer {
            y += height
            pageHasContent = true
        }
        guard isDrawing else { return }
        drawBars(frame.bars, from: y, to: y + height)
        var x = frame.left
        for (column, text) in cells.enumerated() {
            let width = widths[column]
            if isHeader {
                setColor(style.codeBackground)
                cairo_rectangle(canvas.cairo, x, y, width, height)
                cairo_fill(canvas.cairo)
            }
            setColor(style.rule)
            cairo_set_line_width(canvas.cairo, 0.6)
            cairo_rectangle(canvas.cairo, x, y, width, height)
            cairo_stroke(canvas.cairo)
            let alignment: PangoAlignment = switch column < alignments.count ? alignments[column] : nil {
            case "c": PANGO_ALIGN_CENTER
            case "r": PANGO_ALIGN_RIGHT
            default: PANGO_ALIGN_LEFT
            }
            let layout = makeLayout(text, font: font, width: width - 2 * style.tableCellPadding, alignment: alignment)
            setColor(frame.color)
            let originX = x + style.tableCellPadding
            let originY = y + style.tableCellPadding
            cairo_move_to(canvas.cairo, originX, originY)
            pango_cairo_show_layout(canvas.cairo, layout)
            forEachLine(of: layout) { line, logical, _ in
                self.tagLinks(text, line: line, originX: originX, lineTop: originY + logical.y, lineHeight: logical.height)
            }
            g_object_unref(UnsafeMutableRawPointer(layout))
            x += width
        }
    }

    // MARK: Lines and pages

    /// Places the lines of `text`, breaking the page between lines as needed. `onLine` hears of each
    /// line's top, height and baseline once it is placed.
    private func place(
        _ text: InlineText, font: OpaquePointer, frame: Frame,
        background: (left: Double, width: Double, padding: Double)? = nil,
        wrapsAnywhere: Bool = false, lineSpacing: Double = 0, onLine: ((Double, Double, Double) -> Void)? = nil
    ) {
        let layout = makeLayout(text, font: font, width: frame.width, wrapsAnywhere: wrapsAnywhere)
        if lineSpacing > 0 { pango_layout_set_line_spacing(layout, Float(lineSpacing)) }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let lastLine = Int(pango_layout_get_line_count(layout)) - 1
        var lineIndex = 0
        forEachLine(of: layout) { line, logical, baseline in
            defer { lineIndex += 1 }
            applyPendingSpace()
            if y + logical.height > bottom && pageHasContent { newPage() }
            let lineTop = y
            if isDrawing {
                drawBars(frame.bars, from: lineTop, to: lineTop + logical.height)
                if let background {
                    // The first and last lines' boxes reach into the space around the block.
                    let above = lineIndex == 0 ? background.padding : 0
                    let below = lineIndex == lastLine ? background.padding : 0
                    setColor(style.codeBackground)
                    cairo_rectangle(canvas.cairo, background.left, lineTop - above, background.width, logical.height + above + below)
                    cairo_fill(canvas.cairo)
                }
                if let marker = pendingMarker { drawMarker(marker, baseline: lineTop + baseline - logical.y) }
                setColor(frame.color)
                cairo_move_to(canvas.cairo, frame.left + logical.x, lineTop + baseline - logical.y)
                pango_cairo_show_layout_line(canvas.cairo, line)
                tagLinks(text, line: line, originX: frame.left, lineTop: lineTop, lineHeight: logical.height)
            }
            pendingMarker = nil
            previousBars = frame.bars
            y += logical.height
            pageHasContent = true
            onLine?(lineTop, logical.height, lineTop + baseline - logical.y)
        }
    }

    /// Calls `body` with each line of `layout`, its logical rectangle and baseline in points relative
    /// to the layout's top.
    private func forEachLine(
        of layout: OpaquePointer,
        _ body: (UnsafeMutablePointer<PangoLayoutLine>, (x: Double, y: Double, height: Double), Double) -> Void
    ) {
        let iterator = pango_layout_get_iter(layout)
        defer { pango_layout_iter_free(iterator) }
        let scale = Double(PANGO_SCALE)
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iterator) else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            let baseline = Double(pango_layout_iter_get_baseline(iterator)) / scale
            body(line, (Double(logical.x) / scale, Double(logical.y) / scale, Double(logical.height) / scale), baseline)
        } while pango_layout_iter_next_line(iterator) != 0
    }

    /// Draws an attachment's image as a block at most `frame`'s width and a page's height, or a
    /// line naming the file when it cannot be drawn.
    private func placeImage(_ node: MarkdownNode, frame: Frame) {
        guard let reference = AttachmentReference(uri: node.url) else { return }
        let file = attachments[reference.sha256]
            ?? AttachmentFile(reference: reference, problem: "the article has no such attachment")
        let image: PDFImage
        do {
            image = try PDFImage(file)
        } catch {
            var placeholder = frame
            placeholder.color = style.muted
            let line = "[image \(reference.fileName) not shown: \(error.reason)]"
            place(InlineText(plain: line), font: font(style.bodyFamily, size: style.bodySize, italic: true), frame: placeholder)
            addSpace(style.paragraphSpacing)
            return
        }
        let size = image.size(fitting: frame.width, bottom - top)
        keepTogether(size.height)
        applyPendingSpace()
        if y + size.height > bottom && pageHasContent { newPage() }
        if isDrawing {
            drawBars(frame.bars, from: y, to: y + size.height)
            // A list item that starts with an image gets its bullet beside the image's top.
            if let marker = pendingMarker { drawMarker(marker, baseline: y + style.bodySize) }
            image.draw(on: canvas.cairo, x: frame.left, y: y, width: size.width, height: size.height)
        }
        pendingMarker = nil
        previousBars = frame.bars
        y += size.height
        pageHasContent = true
        addSpace(style.paragraphSpacing)
    }

    private func addSpace(_ amount: Double) {
        pendingSpace = max(pendingSpace, amount)
    }

    /// Adds the pending space before the next line, unless the page is fresh.
    private func applyPendingSpace() {
        defer { pendingSpace = 0 }
        guard pageHasContent, pendingSpace > 0 else { return }
        if y + pendingSpace >= bottom {
            newPage()
            return
        }
        if isDrawing { drawBars(previousBars, from: y, to: y + pendingSpace) }
        y += pendingSpace
    }

    /// Starts a new page unless `height` more points fit below the pending space.
    private func keepTogether(_ height: Double) {
        if pageHasContent && y + pendingSpace + height > bottom { newPage() }
    }

    private func newPage() {
        if isDrawing {
            drawFooter()
            cairo_show_page(canvas.cairo)
        }
        pageNumber += 1
        y = top
        pageHasContent = false
        pendingSpace = 0
    }

    private func rule(frame: Frame, spaceAbove: Double, spaceBelow: Double) {
        addSpace(spaceAbove)
        applyPendingSpace()
        if y + 1 > bottom { newPage() }
        if isDrawing {
            setColor(style.rule)
            cairo_set_line_width(canvas.cairo, 0.8)
            cairo_move_to(canvas.cairo, frame.left, y + 0.5)
            cairo_line_to(canvas.cairo, frame.left + frame.width, y + 0.5)
            cairo_stroke(canvas.cairo)
        }
        y += 1
        pageHasContent = true
        addSpace(spaceBelow)
    }

    // MARK: Drawing

    private func drawFooter() {
        let layout = makeLayout(
            InlineText(plain: String(pageNumber)), font: font(style.headingFamily, size: style.footerSize),
            width: canvas.paper.width, alignment: PANGO_ALIGN_CENTER)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        setColor(style.muted)
        let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        cairo_move_to(canvas.cairo, 0, canvas.paper.height - style.footerBaseline - baseline)
        pango_cairo_show_layout(canvas.cairo, layout)
    }

    private func drawMarker(_ marker: Marker, baseline: Double) {
        let layout = makeLayout(
            InlineText(plain: marker.text), font: font(style.bodyFamily, size: style.bodySize), width: marker.width,
            alignment: PANGO_ALIGN_RIGHT)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        setColor(marker.color)
        let markerBaseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        cairo_move_to(canvas.cairo, marker.left, baseline - markerBaseline)
        pango_cairo_show_layout(canvas.cairo, layout)
    }

    private func drawBars(_ bars: [Double], from top: Double, to bottom: Double) {
        guard !bars.isEmpty, bottom > top else { return }
        setColor(style.rule)
        cairo_set_line_width(canvas.cairo, 2)
        for x in bars {
            cairo_move_to(canvas.cairo, x, top)
            cairo_line_to(canvas.cairo, x, bottom)
        }
        cairo_stroke(canvas.cairo)
    }

    /// Makes the part of each link on `line` clickable.
    private func tagLinks(
        _ text: InlineText, line: UnsafeMutablePointer<PangoLayoutLine>, originX: Double, lineTop: Double,
        lineHeight: Double
    ) {
        guard isDrawing, !text.links.isEmpty else { return }
        let lineRange = Int(line.pointee.start_index)..<Int(line.pointee.start_index + line.pointee.length)
        for link in text.links where link.range.overlaps(lineRange) {
            let start = max(link.range.lowerBound, lineRange.lowerBound)
            let end = min(link.range.upperBound, lineRange.upperBound)
            var ranges: UnsafeMutablePointer<Int32>?
            var count: Int32 = 0
            pango_layout_line_get_x_ranges(line, Int32(start), Int32(end), &ranges, &count)
            defer { g_free(ranges) }
            guard let ranges else { continue }
            for index in 0..<Int(count) {
                let left = Double(ranges[2 * index]) / Double(PANGO_SCALE)
                let right = Double(ranges[2 * index + 1]) / Double(PANGO_SCALE)
                guard right > left else { continue }
                tag(link: "uri='\(Self.quotedAttribute(link.url))'", rect: (originX + left, lineTop, right - left, lineHeight))
            }
        }
    }

    /// Adds a link annotation over `rect` on the current page.
    private func tag(link attributes: String, rect: (x: Double, y: Double, width: Double, height: Double)) {
        guard isDrawing else { return }
        let area = [rect.x, rect.y, rect.width, rect.height].map { String(format: "%.2f", $0) }.joined(separator: " ")
        cairo_tag_begin(canvas.cairo, CAIRO_TAG_LINK, "\(attributes) rect=[\(area)]")
        cairo_tag_end(canvas.cairo, CAIRO_TAG_LINK)
    }

    // MARK: Pango

    private func makeLayout(
        _ text: InlineText, font: OpaquePointer, width: Double?, alignment: PangoAlignment = PANGO_ALIGN_LEFT,
        wrapsAnywhere: Bool = false
    ) -> OpaquePointer {
        let layout = pango_layout_new(pango)!
        pango_layout_set_font_description(layout, font)
        if let width {
            pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, wrapsAnywhere ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR)
        }
        pango_layout_set_alignment(layout, alignment)
        var content = text.text
        content.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32($0.count)) }
        }
        if !text.spans.isEmpty {
            let attributes = text.attributeList(style: style)
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        return layout
    }

    private func font(_ family: String, size: Double, bold: Bool = false, italic: Bool = false) -> OpaquePointer {
        let key = "\(family) \(size) \(bold) \(italic)"
        if let font = fontDescriptions[key] { return font }
        let font = pango_font_description_new()!
        pango_font_description_set_family(font, family)
        pango_font_description_set_size(font, Int32(size * Double(PANGO_SCALE)))
        if bold { pango_font_description_set_weight(font, PANGO_WEIGHT_BOLD) }
        if italic { pango_font_description_set_style(font, PANGO_STYLE_ITALIC) }
        fontDescriptions[key] = font
        return font
    }

    private func setColor(_ color: PDFStyle.Color) {
        cairo_set_source_rgb(canvas.cairo, color.red, color.green, color.blue)
    }

    // MARK: Text

    /// `text` for a single-quoted string in a Cairo tag attribute.
    private static func quotedAttribute(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}
