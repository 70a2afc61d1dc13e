/// The Markdown editing aids, as pure functions of the text around the cursor: each returns the
/// one replacement that the editor applies as a single undo step. Offsets count Unicode
/// scalars (a `GtkTextBuffer`'s characters).
enum MarkdownEditing {
    /// Replace the characters in `range` with `text`, then select `selection`.
    struct Edit: Equatable {
        var range: Range<Int>
        var text: String
        var selection: Range<Int>
    }

    // MARK: Inline markers

    /// Bold (`**`), italic (`_`), inline code (`` ` ``) or strikethrough (`~~`) around the
    /// selection, or taken away when the selection already has it, inside or just outside. With
    /// nothing selected, an empty pair with the cursor between.
    ///
    /// `before` and `after` are the characters just outside the selection (as many as the
    /// marker has, fewer at the text's ends).
    static func toggle(_ marker: String, selected: String, at selection: Range<Int>, before: String, after: String) -> Edit {
        let width = marker.unicodeScalars.count
        let selectedWidth = selected.unicodeScalars.count
        if selectedWidth >= 2 * width, selected.hasPrefix(marker), selected.hasSuffix(marker) {
            let inner = String(String.UnicodeScalarView(Array(selected.unicodeScalars).dropFirst(width).dropLast(width)))
            return Edit(range: selection, text: inner, selection: selection.lowerBound..<(selection.upperBound - 2 * width))
        }
        if before == marker, after == marker {
            let start = selection.lowerBound - width
            return Edit(range: start..<(selection.upperBound + width), text: selected, selection: start..<(start + selectedWidth))
        }
        let start = selection.lowerBound + width
        return Edit(range: selection, text: marker + selected + marker, selection: start..<(start + selectedWidth))
    }

    /// `[selected](url)` in place of the selection, the cursor after it; with nothing selected,
    /// the address is the link's text too.
    static func link(_ url: String, selected: String, at selection: Range<Int>) -> Edit {
        let text = selected.isEmpty ? url : selected
        let link = "[\(text)](\(url))"
        let end = selection.lowerBound + link.unicodeScalars.count
        return Edit(range: selection, text: link, selection: end..<end)
    }

    /// The text of a selected link (`[text](address)`), which Ctrl+K turns back into its text;
    /// nil when the selection is not one link.
    static func linkText(of selected: String) -> String? {
        guard selected.hasPrefix("["), selected.hasSuffix(")"), let middle = selected.range(of: "](") else { return nil }
        let text = selected[selected.index(after: selected.startIndex)..<middle.lowerBound]
        // An address has no space (Markdown ends it there), so "[a](b) and [c](d)" is two links.
        let address = selected[middle.upperBound..<selected.index(before: selected.endIndex)]
        guard !text.contains("]"), !address.contains(where: \.isWhitespace) else { return nil }
        return String(text)
    }

    // MARK: Headings

    /// Makes the line a heading of `level` (1 to 6), or a paragraph when it is one already or
    /// `level` is 0. `line` is the line's text, starting at `lineStart`; the cursor keeps its
    /// place in the text.
    static func heading(_ level: Int, line: String, lineStart: Int, cursor: Int) -> Edit {
        let scalars = Array(line.unicodeScalars)
        var hashes = 0
        while hashes < scalars.count, scalars[hashes] == "#" { hashes += 1 }
        var textStart = 0
        var current = 0
        if (1...6).contains(hashes), hashes == scalars.count || scalars[hashes] == " " {
            current = hashes
            textStart = hashes
            while textStart < scalars.count, scalars[textStart] == " " { textStart += 1 }
        }
        let text = String(String.UnicodeScalarView(scalars[textStart...]))
        let prefix = level == 0 || level == current ? "" : String(repeating: "#", count: level) + " "
        let column = max(0, cursor - lineStart - textStart)
        let newCursor = lineStart + prefix.unicodeScalars.count + column
        return Edit(range: lineStart..<(lineStart + scalars.count), text: prefix + text, selection: newCursor..<newCursor)
    }

    // MARK: Lists and quotes

    /// What Return does on a list item or quote line, or nil for an ordinary new line.
    ///
    /// `lines` are the cursor's line and the lines after it (as many as the caller has; a
    /// numbered list is renumbered down to its end), the first starting at `lineStart`, and
    /// `column` is the cursor's place in the first. On an item with text, a new item follows
    /// (the next number, an unchecked box, the same quote markers) and the numbers below go up
    /// by one; on an empty item the marker goes, which ends the list.
    static func newLine(lines: [String], lineStart: Int, column: Int) -> Edit? {
        guard let line = lines.first, let prefix = LinePrefix(line), column >= prefix.length else { return nil }
        let scalars = Array(line.unicodeScalars)
        if scalars.count == prefix.length {
            // An empty item: the list (or quote) ends here.
            return Edit(range: lineStart..<(lineStart + scalars.count), text: "", selection: lineStart..<lineStart)
        }
        let head = String(String.UnicodeScalarView(scalars[..<column]))
        let tail = String(String.UnicodeScalarView(scalars[column...]))
        let continuation = prefix.continuation
        var text = head + "\n" + continuation + tail
        let cursor = lineStart + head.unicodeScalars.count + 1 + continuation.unicodeScalars.count
        var end = lineStart + scalars.count
        if case .numbered(let number, _) = prefix.marker {
            var next = number + 2
            for following in lines.dropFirst() {
                // A blank line or a line less indented ends the renumbering.
                let leadingSpaces = following.unicodeScalars.prefix { $0 == " " }.count
                if leadingSpaces == following.unicodeScalars.count { break }
                if let item = LinePrefix(following), item.indent == prefix.indent, case .numbered(let old, let delimiter) = item.marker {
                    let itemScalars = Array(following.unicodeScalars)
                    let label = "\(next)\(delimiter)"
                    let oldLabel = "\(old)\(delimiter)"
                    let rest = String(String.UnicodeScalarView(itemScalars[(item.indent + oldLabel.unicodeScalars.count)...]))
                    text += "\n" + String(repeating: " ", count: item.indent) + label + rest
                    end += 1 + itemScalars.count
                    next += 1
                } else if leadingSpaces > prefix.indent {
                    // A nested line belongs to the item above: keep it, look further.
                    text += "\n" + following
                    end += 1 + following.unicodeScalars.count
                } else {
                    break
                }
            }
        }
        return Edit(range: lineStart..<end, text: text, selection: cursor..<cursor)
    }

    /// Tab on a list item: the item moves one level in (under the item above). Shift+Tab: one
    /// level out, to the indent of the item it was nested in. Nil when the line is no list item
    /// (Tab then does what it always does).
    ///
    /// `previousLines` are the lines above, nearest last.
    static func indent(line: String, lineStart: Int, cursor: Int, outwards: Bool, previousLines: [String]) -> Edit? {
        guard let prefix = LinePrefix(line), prefix.isListItem else { return nil }
        let newIndent: Int
        if outwards {
            guard prefix.indent > 0 else { return nil }
            let parent = previousLines.reversed().lazy.compactMap(LinePrefix.init).first { $0.isListItem && $0.indent < prefix.indent }
            newIndent = parent?.indent ?? 0
        } else {
            let sibling = previousLines.reversed().lazy.compactMap(LinePrefix.init).first { $0.isListItem && $0.indent <= prefix.indent }
            guard let sibling, sibling.indent == prefix.indent else { return nil }
            newIndent = prefix.indent + sibling.markerWidth
        }
        let change = newIndent - prefix.indent
        let text = String(repeating: " ", count: newIndent)
        let newCursor = max(lineStart + newIndent, cursor + change)
        return Edit(range: lineStart..<(lineStart + prefix.indent), text: text, selection: newCursor..<newCursor)
    }
}
