import Foundation

/// Which parts of a Markdown text are prose a spell checker reads: everything but front matter,
/// fenced and indented code blocks, code spans, HTML tags and comments, autolinks, bare URLs and
/// e-mail addresses, link targets and link reference definitions. Headings, list items, emphasis
/// and link texts are prose, except a link text that is the name of the file its target ends with
/// (`![photo.png](attachment:…/photo.png)`, as the editor inserts attachments): a file name.
///
/// A quick line scan rather than a full CommonMark parse: it runs on every edit, and a word it
/// wrongly takes for prose is only underlined, never changed.
public enum ProseRanges {
    /// The prose ranges of `text`, in Unicode scalars from its start (GTK's character offsets), in order.
    public static func ranges(in text: String) -> [Range<Int>] {
        ranges(in: Array(text.unicodeScalars))
    }

    /// The prose ranges of a text given as its Unicode scalars. With `lines`, only those of the
    /// lines that overlap that range (or touch it): the lines above it are still read for the
    /// blocks they open (a code fence far above), but their own prose is not looked for, and the
    /// scan stops after it. That is what one edit costs the checker.
    public static func ranges(in text: [Unicode.Scalar], lines: Range<Int>? = nil) -> [Range<Int>] {
        var scanner = LineScanner(text: text)
        var found: [Range<Int>] = []
        var lineStart = 0
        while lineStart < text.count {
            if let lines, lineStart > lines.upperBound { break }
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != "\n" { lineEnd += 1 }
            let contentEnd = lineEnd > lineStart && text[lineEnd - 1] == "\r" ? lineEnd - 1 : lineEnd
            let wanted = lines.map { contentEnd >= $0.lowerBound } ?? true
            found += scanner.prose(of: lineStart..<contentEnd, collecting: wanted)
            lineStart = lineEnd + 1
        }
        return found
    }
}

/// The block a line scan is in, and the prose of each line given that block.
private struct LineScanner {
    enum Block: Equatable {
        case prose
        case frontMatter
        case fenced(marker: Unicode.Scalar, length: Int)
    }

    let text: [Unicode.Scalar]
    var block = Block.prose
    var isFirstLine = true
    var previousBlank = true
    var inIndentedCode = false
    var inList = false

    init(text: [Unicode.Scalar]) {
        self.text = text
    }

    /// Reads `line` for the block it opens, continues or closes, and returns its prose when
    /// `collecting` (otherwise nothing: the caller only needs the state it leaves).
    mutating func prose(of line: Range<Int>, collecting: Bool = true) -> [Range<Int>] {
        defer { isFirstLine = false }
        if isFirstLine, trimmed(line) == "---", hasFrontMatterEnd(after: line.upperBound) {
            block = .frontMatter
            return []
        }
        switch block {
        case .frontMatter:
            if ["---", "..."].contains(trimmed(line)) { block = .prose }
            return []
        case .fenced(let marker, let length):
            if let (closing, count) = fence(line), closing == marker, count >= length,
               trimmed(line).unicodeScalars.allSatisfy({ $0 == marker }) {
                block = .prose
            }
            return []
        case .prose:
            break
        }
        if line.allSatisfy({ text[$0] == " " || text[$0] == "\t" }) {
            previousBlank = true
            return []
        }
        defer { previousBlank = false }
        let indent = indentation(line)
        if indent >= 4, previousBlank || inIndentedCode, !inList {
            inIndentedCode = true
            return []
        }
        inIndentedCode = false
        if let (marker, length) = fence(line) {
            block = .fenced(marker: marker, length: length)
            return []
        }
        if isListItem(line) {
            inList = true
        } else if previousBlank, indent == 0 {
            inList = false
        }
        return collecting ? InlineProse(text: text, line: line).ranges() : []
    }

    /// Columns of leading white space (a tab counts to the next multiple of four).
    func indentation(_ line: Range<Int>) -> Int {
        var columns = 0
        for index in line {
            if text[index] == " " { columns += 1 } else if text[index] == "\t" { columns += 4 - columns % 4 } else { break }
        }
        return columns
    }

    func trimmed(_ line: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: text[line])
        return String(view).trimmingCharacters(in: .whitespaces)
    }

    /// The marker and length of a code fence (three or more backticks or tildes, indented at most three).
    func fence(_ line: Range<Int>) -> (Unicode.Scalar, Int)? {
        guard indentation(line) < 4 else { return nil }
        var index = line.lowerBound
        while index < line.upperBound, text[index] == " " { index += 1 }
        guard index < line.upperBound, text[index] == "`" || text[index] == "~" else { return nil }
        let marker = text[index]
        var length = 0
        while index < line.upperBound, text[index] == marker { length += 1; index += 1 }
        guard length >= 3 else { return nil }
        // A backtick fence's info string may not hold a backtick (that is an inline code span).
        if marker == "`", text[index..<line.upperBound].contains("`") { return nil }
        return (marker, length)
    }

    func isListItem(_ line: Range<Int>) -> Bool {
        var index = line.lowerBound
        while index < line.upperBound, text[index] == " " || text[index] == "\t" { index += 1 }
        guard index < line.upperBound else { return false }
        if ["-", "*", "+"].contains(text[index]) {
            return index + 1 == line.upperBound || text[index + 1] == " " || text[index + 1] == "\t"
        }
        var digits = 0
        while index < line.upperBound, text[index].properties.numericType == .decimal { digits += 1; index += 1 }
        return digits > 0 && digits < 10 && index < line.upperBound && (text[index] == "." || text[index] == ")")
    }

    /// Whether a line `---` or `...` closes the front matter that the first line opens.
    func hasFrontMatterEnd(after start: Int) -> Bool {
        var lineStart = start + 1
        while lineStart < text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != "\n" { lineEnd += 1 }
            if ["---", "..."].contains(trimmed(lineStart..<lineEnd)) { return true }
            lineStart = lineEnd + 1
        }
        return false
    }
}

/// The prose of one line: the line without its code spans, HTML tags, URLs, link targets and
/// file-name link texts.
private struct InlineProse {
    let text: [Unicode.Scalar]
    let line: Range<Int>

    func ranges() -> [Range<Int>] {
        var excluded: [Range<Int>] = []
        var index = line.lowerBound
        // The `[` of each link text not closed yet, innermost last.
        var openBrackets: [Int] = []
        // A link reference definition, `[label]: target`: its target is no prose.
        if let definition = referenceTarget() { excluded.append(definition) }
        while index < line.upperBound {
            let scalar = text[index]
            switch scalar {
            case "\\":
                index += 2
                continue
            case "[":
                openBrackets.append(index)
            case "`":
                let run = run(of: "`", from: index)
                if let closing = closingRun(of: run.count, from: run.upperBound) {
                    excluded.append(index..<closing)
                    index = closing
                } else {
                    index = run.upperBound
                }
                continue
            case "<":
                if index + 1 < line.upperBound, isTagStart(text[index + 1]), let close = first(">", from: index + 1) {
                    excluded.append(index..<close + 1)
                    index = close + 1
                    continue
                }
            case "]":
                let open = openBrackets.popLast()
                if index + 1 < line.upperBound, text[index + 1] == "(", let close = closingParenthesis(from: index + 1) {
                    if let open, isFileName(open + 1..<index, of: index + 2..<close) {
                        excluded.append(open..<close + 1)
                    } else {
                        excluded.append(index + 1..<close + 1)
                    }
                    index = close + 1
                    continue
                }
            case "@":
                let token = token(around: index)
                excluded.append(token)
                index = token.upperBound
                continue
            default:
                if startsURL(at: index) {
                    let token = token(around: index)
                    excluded.append(index..<token.upperBound)
                    index = token.upperBound
                    continue
                }
            }
            index += 1
        }
        return complement(of: excluded)
    }

    func run(of marker: Unicode.Scalar, from start: Int) -> Range<Int> {
        var end = start
        while end < line.upperBound, text[end] == marker { end += 1 }
        return start..<end
    }

    /// The end of the next run of exactly `count` backticks from `start`.
    func closingRun(of count: Int, from start: Int) -> Int? {
        var index = start
        while index < line.upperBound {
            if text[index] == "`" {
                let run = run(of: "`", from: index)
                if run.count == count { return run.upperBound }
                index = run.upperBound
            } else {
                index += 1
            }
        }
        return nil
    }

    func first(_ scalar: Unicode.Scalar, from start: Int) -> Int? {
        (start..<line.upperBound).first { text[$0] == scalar }
    }

    func isTagStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "/" || scalar == "!" || scalar == "?" || (scalar.isASCII && scalar.properties.isAlphabetic)
    }

    /// The `)` that closes the `(` at `open`, with nested parentheses.
    func closingParenthesis(from open: Int) -> Int? {
        var depth = 0
        for index in open..<line.upperBound {
            if text[index] == "(" { depth += 1 }
            if text[index] == ")" { depth -= 1; if depth == 0 { return index } }
        }
        return nil
    }

    /// The white-space-delimited token around `index`.
    func token(around index: Int) -> Range<Int> {
        var start = index
        while start > line.lowerBound, !text[start - 1].properties.isWhitespace { start -= 1 }
        var end = index
        while end < line.upperBound, !text[end].properties.isWhitespace { end += 1 }
        return start..<end
    }

    /// The starts of URLs, in lower case ASCII.
    static let urlPrefixes: [[UInt32]] = ["http://", "https://", "ftp://", "mailto:", "file://", "www."].map { $0.unicodeScalars.map(\.value) }

    func startsURL(at index: Int) -> Bool {
        // Every prefix starts with f, h, m or w: most characters are ruled out without a look back.
        let first = text[index].value | 0x20
        guard first == 0x66 || first == 0x68 || first == 0x6D || first == 0x77 else { return false }
        guard index == line.lowerBound || !text[index - 1].properties.isAlphabetic else { return false }
        return Self.urlPrefixes.contains { prefix in
            index + prefix.count <= line.upperBound
                && prefix.indices.allSatisfy { offset in
                    let value = text[index + offset].value
                    // ASCII letters compare without case; everything else as it is.
                    return (value >= 0x41 && value <= 0x5A ? value | 0x20 : value) == prefix[offset]
                }
        }
    }

    /// Whether the link text in `label` is the file name `target` ends with (its last path
    /// component, percent-decoded; an optional title after a space left out), backslash escapes
    /// read as the characters they stand for.
    func isFileName(_ label: Range<Int>, of target: Range<Int>) -> Bool {
        var destination = target.lowerBound
        while destination < target.upperBound, text[destination] != " " { destination += 1 }
        var nameStart = destination
        while nameStart > target.lowerBound, text[nameStart - 1] != "/" { nameStart -= 1 }
        var encoded = String.UnicodeScalarView()
        encoded.append(contentsOf: text[nameStart..<destination])
        guard let name = String(encoded).removingPercentEncoding, !name.isEmpty else { return false }
        var unescaped = String.UnicodeScalarView()
        var index = label.lowerBound
        while index < label.upperBound {
            if text[index] == "\\", index + 1 < label.upperBound, text[index + 1].isASCII, text[index + 1].properties.isPatternSyntax {
                index += 1
            }
            unescaped.append(text[index])
            index += 1
        }
        return String(unescaped) == name
    }

    func referenceTarget() -> Range<Int>? {
        var index = line.lowerBound
        while index < line.upperBound, text[index] == " " { index += 1 }
        guard index < line.upperBound, text[index] == "[", let close = first("]", from: index),
              close + 1 < line.upperBound, text[close + 1] == ":" else { return nil }
        return close + 1..<line.upperBound
    }

    /// The line without the excluded ranges (which may overlap).
    func complement(of excluded: [Range<Int>]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = line.lowerBound
        for range in excluded.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > start { ranges.append(start..<range.lowerBound) }
            start = max(start, range.upperBound)
        }
        if start < line.upperBound { ranges.append(start..<line.upperBound) }
        return ranges
    }
}
