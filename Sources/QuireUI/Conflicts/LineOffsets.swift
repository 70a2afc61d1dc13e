/// Where each line of a text starts, in characters (Unicode scalars, as `GtkTextIter` offsets
/// count them). A line ends after `\n`, as ``LineDiff`` splits lines, so the dialog highlights
/// exactly the lines the diff names whatever line endings the text uses.
struct LineOffsets {
    /// The offset of each line's first character, and the text's length at the end.
    private let starts: [Int]

    init(_ text: String) {
        var starts = [0]
        var offset = 0
        for scalar in text.unicodeScalars {
            offset += 1
            if scalar == "\n" { starts.append(offset) }
        }
        if starts.last != offset { starts.append(offset) }
        self.starts = starts
    }

    /// The number of lines (a final line without terminator counts; an empty text has none).
    var lineCount: Int { starts.count - 1 }

    /// The characters of the lines in `lines`, terminators included; clamped to the text.
    func characters(of lines: Range<Int>) -> Range<Int> {
        let lower = starts[min(max(lines.lowerBound, 0), lineCount)]
        let upper = starts[min(max(lines.upperBound, 0), lineCount)]
        return lower..<max(lower, upper)
    }
}
