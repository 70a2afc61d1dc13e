import Foundation

/// What the article list shows of an article's text without reading its body: a plain-text
/// excerpt, a word count, and the title's sort key. Derived from the Markdown when it changes.
///
/// Markdown is read line by line, roughly: block markers (headings, quotes, list bullets, task
/// boxes, table pipes, fences, rules), inline markers (emphasis, code spans, strikethrough), link
/// and image targets, and HTML tags are left out; their text stays. Words are runs of letters,
/// digits and marks (an apostrophe or hyphen between letters, or a point between digits, does not
/// split one); each CJK character counts as a word, as CJK word counts do. The text is read as
/// Unicode scalars in one pass, since every save of a long body pays for it.
public enum ArticleText {
    /// How many characters an excerpt holds at most (an ellipsis marks a cut).
    public static let excerptLength = 180

    /// The key the list sorts titles by: case and accents folded, so "école" sorts with "Ecole".
    public static func sortKey(_ title: String) -> String {
        title.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The body's excerpt and word count, read in one pass.
    public static func summary(of body: String) -> (excerpt: String, wordCount: Int) {
        var prose = ExcerptBuilder(limit: excerptLength)
        var headings = ExcerptBuilder(limit: excerptLength)
        var count = 0
        MarkdownLines.forEach(in: body) { text, isHeading, isCode in
            count += words(in: text)
            if isCode || prose.isFull { return }
            if isHeading { headings.append(text) } else { prose.append(text) }
        }
        return (prose.isEmpty ? headings.text : prose.text, count)
    }

    /// The body's first words as one line of plain text, headings skipped unless there is nothing else.
    public static func excerpt(of body: String) -> String { summary(of: body).excerpt }

    /// The number of words in the body's text (code included, markup and link targets not).
    public static func wordCount(of body: String) -> Int { summary(of: body).wordCount }

    /// Words in a line of plain text.
    static func words(in text: String.UnicodeScalarView) -> Int {
        var count = 0
        var inWord = false
        var previous: Unicode.Scalar = " "
        var index = text.startIndex
        while index < text.endIndex {
            let scalar = text[index]
            let nextIndex = text.index(after: index)
            if isCJK(scalar) {
                count += 1
                inWord = false
            } else if isWordScalar(scalar) {
                if !inWord { count += 1 }
                inWord = true
            } else if inWord, nextIndex < text.endIndex, isJoiner(scalar, after: previous, before: text[nextIndex]) {
                // "don't", "well-known", "3.14": one word; the next scalar continues it.
            } else {
                inWord = false
            }
            previous = scalar
            index = nextIndex
        }
        return count
    }

    /// An apostrophe or hyphen between letters, or a point or comma between digits.
    private static func isJoiner(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar, before next: Unicode.Scalar) -> Bool {
        switch scalar {
        case "'", "’", "-": return isWordScalar(next) && !isCJK(next)
        case ".", ",": return isDigit(previous) && isDigit(next)
        default: return false
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? ("0"..."9").contains(scalar) : scalar.properties.numericType == .decimal
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    private static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F, 0xAC00...0xD7AF:
            return true
        default:
            return false
        }
    }
}

/// Collects plain text up to a length, one space between words.
private struct ExcerptBuilder {
    let limit: Int
    private(set) var text = ""
    private(set) var isFull = false
    private var count = 0

    init(limit: Int) { self.limit = limit }

    var isEmpty: Bool { text.isEmpty }

    mutating func append(_ piece: String.UnicodeScalarView) {
        guard !isFull else { return }
        for word in String(piece).split(whereSeparator: \.isWhitespace) {
            let separator = text.isEmpty ? 0 : 1
            if count + separator + word.count > limit {
                if text.isEmpty { text = String(word.prefix(limit - 1)) }
                text += "…"
                isFull = true
                return
            }
            if separator == 1 { text += " " }
            text += word
            count += separator + word.count
        }
    }
}

/// The lines of a Markdown text with block and inline markup removed, as Unicode scalars.
enum MarkdownLines {
    /// Calls `body` with each non-empty line's text, whether it is a heading, and whether it is
    /// inside a fenced code block.
    static func forEach(in markdown: String, _ body: (String.UnicodeScalarView, _ isHeading: Bool, _ isCode: Bool) -> Void) {
        let scalars = markdown.unicodeScalars
        var fence: (mark: Unicode.Scalar, length: Int)?
        var start = scalars.startIndex
        while start < scalars.endIndex {
            var end = start
            while end < scalars.endIndex && !isNewline(scalars[end]) { end = scalars.index(after: end) }
            let line = scalars[start..<end].drop { $0 == " " || $0 == "\t" }
            start = end < scalars.endIndex ? scalars.index(after: end) : end
            guard let first = line.first else { continue }

            if let open = fence {
                let marks = line.prefix { $0 == open.mark }.count
                if marks >= open.length && line.dropFirst(marks).allSatisfy({ $0 == " " || $0 == "\t" }) {
                    fence = nil
                } else {
                    body(String.UnicodeScalarView(line), false, true)
                }
                continue
            }
            if first == "`" || first == "~" {
                let marks = line.prefix { $0 == first }.count
                if marks >= 3 {
                    fence = (first, marks)
                    continue
                }
            }
            if isRuleOrTableSeparator(line) { continue }
            var text = line
            var isHeading = false
            if first == "#" {
                let hashes = text.prefix { $0 == "#" }.count
                if hashes <= 6, text.dropFirst(hashes).first.map({ $0 == " " || $0 == "\t" }) ?? true {
                    isHeading = true
                    text = text.dropFirst(hashes)
                }
            }
            let plain = stripInline(stripBlockMarkers(text))
            if plain.contains(where: { $0 != " " && $0 != "\t" }) { body(plain, isHeading, false) }
        }
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": return true
        default: return false
        }
    }

    private static func isRuleOrTableSeparator(_ line: Substring.UnicodeScalarView) -> Bool {
        guard let first = line.first, "-*_|:".unicodeScalars.contains(first) else { return false }
        var marks = 0
        var hasDash = false
        var allSame = true
        var onlyTable = true
        for scalar in line where scalar != " " && scalar != "\t" {
            marks += 1
            if scalar == "-" { hasDash = true }
            if scalar != first { allSame = false }
            if scalar != "|" && scalar != "-" && scalar != ":" { onlyTable = false }
        }
        guard marks >= 3 else { return false }
        return (allSame && first != "|" && first != ":") || (hasDash && onlyTable)
    }

    /// Quote markers, list bullets, ordered-list numbers and task boxes at the start of a line.
    private static func stripBlockMarkers(_ line: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
        var text = line
        while true {
            text = text.drop { $0 == " " }
            guard let first = text.first else { return text }
            let second = text.dropFirst().first
            if first == ">" {
                text = text.dropFirst()
            } else if (first == "-" || first == "*" || first == "+") && second == " " {
                text = text.dropFirst(2)
            } else if first == "[", let mark = second, mark == " " || mark == "x" || mark == "X",
                      text.dropFirst(2).first == "]", text.dropFirst(3).first == " " {
                text = text.dropFirst(4)
            } else {
                let digits = text.prefix { ("0"..."9").contains($0) }.count
                guard digits > 0, digits <= 9, let marker = text.dropFirst(digits).first, marker == "." || marker == ")",
                      text.dropFirst(digits + 1).first == " " else { return text }
                text = text.dropFirst(digits + 2)
            }
        }
    }

    /// Emphasis, code and strikethrough markers, link and image targets, HTML tags, table pipes.
    private static func stripInline(_ text: Substring.UnicodeScalarView) -> String.UnicodeScalarView {
        var result = String.UnicodeScalarView()
        var index = text.startIndex
        while index < text.endIndex {
            let scalar = text[index]
            let next = text.index(after: index)
            switch scalar {
            case "*", "_", "~", "`", "[":
                break
            case "|":
                result.append(" ")
            case "\\":
                // An escaped character is text.
                if next < text.endIndex {
                    result.append(text[next])
                    index = text.index(after: next)
                    continue
                }
            case "!" where next < text.endIndex && text[next] == "[":
                break
            case "]":
                // `](target)`: the target is not text.
                if next < text.endIndex, text[next] == "(", let close = text[next...].firstIndex(of: ")") {
                    index = text.index(after: close)
                    continue
                }
            case "<":
                // An HTML tag or an autolink, on one line: an autolink's address is text.
                if let close = text[index...].firstIndex(of: ">") {
                    let inner = text[next..<close]
                    if inner.starts(with: "http://".unicodeScalars) || inner.starts(with: "https://".unicodeScalars)
                        || inner.contains("@") {
                        result.append(contentsOf: inner)
                    }
                    index = text.index(after: close)
                    continue
                }
                result.append(scalar)
            default:
                result.append(scalar)
            }
            index = next
        }
        return result
    }
}
