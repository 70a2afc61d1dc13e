/// The Markdown block marker a line starts with: a bullet or numbered list item (with its task
/// box), or block quote markers. Lengths and columns count Unicode scalars, as `GtkTextBuffer`
/// counts characters.
struct LinePrefix: Equatable {
    enum Marker: Equatable {
        /// `-`, `*` or `+`.
        case bullet(Unicode.Scalar)
        /// `3.` or `3)`.
        case numbered(Int, delimiter: Unicode.Scalar)
        /// `>` markers, as written (`> > `).
        case quote(String)
    }

    /// Spaces before the marker.
    var indent: Int
    var marker: Marker
    /// Whether a task box (`[ ] `, `[x] `) follows a list marker.
    var hasTaskBox: Bool
    /// Where the item's text starts.
    var length: Int
    /// How far the marker and the spaces after it reach past the indent (`- ` 2, `10. ` 4): the
    /// indent of an item nested in this one.
    var markerWidth: Int

    /// Whether the marker starts a list item.
    var isListItem: Bool {
        if case .quote = marker { return false }
        return true
    }

    /// The prefix of `line`, or nil when it starts with none.
    init?(_ line: String) {
        let scalars = Array(line.unicodeScalars)
        var index = 0
        while index < scalars.count, scalars[index] == " " { index += 1 }
        indent = index
        guard index < scalars.count else { return nil }
        let first = scalars[index]
        if first == ">" {
            var end = index
            while end < scalars.count, scalars[end] == ">" || scalars[end] == " " { end += 1 }
            marker = .quote(String(String.UnicodeScalarView(scalars[index..<end])))
            hasTaskBox = false
            length = end
            markerWidth = end - index
            return
        }
        var afterMarker: Int
        if first == "-" || first == "*" || first == "+" {
            marker = .bullet(first)
            afterMarker = index + 1
        } else {
            var end = index
            var number = 0
            while end < scalars.count, end - index < 9, let digit = scalars[end].properties.numericType == .decimal
                ? Int(String(scalars[end])) : nil {
                number = number * 10 + digit
                end += 1
            }
            guard end > index, end < scalars.count, scalars[end] == "." || scalars[end] == ")" else { return nil }
            marker = .numbered(number, delimiter: scalars[end])
            afterMarker = end + 1
        }
        // A marker is followed by a space, or ends the line (an empty item).
        var spaces = afterMarker
        while spaces < scalars.count, scalars[spaces] == " " { spaces += 1 }
        guard spaces > afterMarker || afterMarker == scalars.count else { return nil }
        // Four or more spaces after the marker start indented code inside the item: one belongs to the marker.
        let contentStart = spaces - afterMarker > 4 ? afterMarker + 1 : max(spaces, afterMarker + 1)
        markerWidth = contentStart - index
        let box = Array(scalars[min(contentStart, scalars.count)...].prefix(4))
        hasTaskBox = box.count >= 3 && box[0] == "[" && (box[1] == " " || box[1] == "x" || box[1] == "X") && box[2] == "]"
            && (box.count == 3 || box[3] == " ")
        length = min(scalars.count, hasTaskBox ? contentStart + min(4, box.count) : contentStart)
    }

    /// What the next line of the same list or quote starts with: the next number, an unchecked
    /// box.
    var continuation: String {
        let spaces = String(repeating: " ", count: indent)
        switch marker {
        case .quote(let markers):
            return spaces + markers
        case .bullet(let bullet):
            return spaces + String(bullet) + " " + (hasTaskBox ? "[ ] " : "")
        case .numbered(let number, let delimiter):
            let label = "\(number + 1)\(delimiter)"
            return spaces + label + String(repeating: " ", count: max(1, markerWidth - label.unicodeScalars.count))
                + (hasTaskBox ? "[ ] " : "")
        }
    }
}
