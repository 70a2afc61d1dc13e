import Foundation

/// What the article list shows of an article's text without reading its body: a plain-text
/// excerpt, a word count, and the title's sort key. Derived from the Markdown when it changes.
///
/// Markdown is read line by line, roughly: block markers (headings, quotes, list bullets, task
/// boxes, table pipes, fences, rules), inline markers (emphasis, code spans, strikethrough), link
/// and image targets, and HTML tags are left out; their text stays. Words are runs of letters,
/// digits and marks (an apostrophe or hyphen between letters does not split one); each CJK
/// character counts as a word, as CJK word counts do.
public enum ArticleText {
    /// How many characters an excerpt holds at most (an ellipsis marks a cut).
    public static let excerptLength = 180

    /// The key the list sorts titles by: case and accents folded, so "école" sorts with "Ecole".
    public static func sortKey(_ title: String) -> String {
        title.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The body's first words as one line of plain text, headings skipped unless there is nothing else.
    public static func excerpt(of body: String) -> String {
        var prose = ExcerptBuilder(limit: excerptLength)
        var headings = ExcerptBuilder(limit: excerptLength)
        MarkdownLines.forEach(in: body) { text, isHeading, isCode in
            guard !isCode else { return true }
            if isHeading { headings.append(text) } else { prose.append(text) }
            return !prose.isFull
        }
        return prose.isEmpty ? headings.text : prose.text
    }

    /// The number of words in the body's text (code included, markup and link targets not).
    public static func wordCount(of body: String) -> Int {
        var count = 0
        MarkdownLines.forEach(in: body) { text, _, _ in
            count += words(in: text)
            return true
        }
        return count
    }

    /// Words in plain text.
    static func words(in text: Substring) -> Int {
        var count = 0
        var inWord = false
        var previousWasLetter = false
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if isCJK(scalar) {
                count += 1
                inWord = false
                previousWasLetter = false
                continue
            }
            if isWordScalar(scalar) {
                if !inWord { count += 1 }
                inWord = true
                previousWasLetter = true
            } else if previousWasLetter, index + 1 < scalars.count,
                      isJoiner(scalar, after: scalars[index - 1], before: scalars[index + 1]) {
                // "don't", "well-known", "3.14": one word.
                previousWasLetter = false
            } else {
                inWord = false
                previousWasLetter = false
            }
        }
        return count
    }

    /// An apostrophe or hyphen between letters, or a point or comma between digits.
    private static func isJoiner(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar, before next: Unicode.Scalar) -> Bool {
        switch scalar {
        case "'", "’", "-": return isWordScalar(next) && !isCJK(next)
        case ".", ",": return previous.properties.numericType == .decimal && next.properties.numericType == .decimal
        default: return false
        }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
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

/// Collects plain text up to a length, one space between pieces.
private struct ExcerptBuilder {
    let limit: Int
    private(set) var text = ""
    private(set) var isFull = false
    private var count = 0

    init(limit: Int) { self.limit = limit }

    var isEmpty: Bool { text.isEmpty }

    mutating func append(_ piece: Substring) {
        guard !isFull else { return }
        for word in piece.split(whereSeparator: \.isWhitespace) {
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

/// The lines of a Markdown text with block and inline markup removed.
enum MarkdownLines {
    /// Calls `body` with each non-empty line's text, whether it is a heading, and whether it is
    /// inside a fenced code block; stops when `body` returns false.
    static func forEach(in markdown: String, _ body: (Substring, _ isHeading: Bool, _ isCode: Bool) -> Bool) {
        var fence: Substring?
        for rawLine in markdown.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if let open = fence {
                if line.hasPrefix(open) && line.allSatisfy({ $0 == open.first }) {
                    fence = nil
                } else if !body(line, false, true) {
                    return
                }
                continue
            }
            if line.hasPrefix("```") || line.hasPrefix("~~~") {
                fence = line.prefix { $0 == line.first }
                continue
            }
            if isRuleOrTableSeparator(line) { continue }
            var isHeading = false
            var text = line
            if text.first == "#" {
                let hashes = text.prefix { $0 == "#" }
                if hashes.count <= 6, text.dropFirst(hashes.count).first.map({ $0 == " " }) ?? true {
                    isHeading = true
                    text = text.dropFirst(hashes.count)
                }
            }
            text = stripBlockMarkers(text)
            let plain = stripInline(text)
            if plain.contains(where: { !$0.isWhitespace }), !body(plain[...], isHeading, false) { return }
        }
    }

    private static func isRuleOrTableSeparator(_ line: Substring) -> Bool {
        let marks = line.filter { !$0.isWhitespace }
        guard marks.count >= 3 else { return false }
        if marks.allSatisfy({ $0 == "-" }) || marks.allSatisfy({ $0 == "*" }) || marks.allSatisfy({ $0 == "_" }) { return true }
        return marks.contains("-") && marks.allSatisfy { $0 == "|" || $0 == "-" || $0 == ":" }
    }

    /// Quote markers, list bullets, ordered-list numbers and task boxes at the start of a line.
    private static func stripBlockMarkers(_ line: Substring) -> Substring {
        var text = line.drop { $0 == " " }
        while true {
            if text.first == ">" {
                text = text.dropFirst().drop { $0 == " " }
            } else if let first = text.first, "-*+".contains(first), text.dropFirst().first == " " {
                text = text.dropFirst(2).drop { $0 == " " }
            } else if let digits = Optional(text.prefix { $0.isASCII && $0.isNumber }), !digits.isEmpty, digits.count <= 9,
                      let marker = text.dropFirst(digits.count).first, marker == "." || marker == ")",
                      text.dropFirst(digits.count + 1).first == " " {
                text = text.dropFirst(digits.count + 2).drop { $0 == " " }
            } else if text.hasPrefix("[ ] ") || text.hasPrefix("[x] ") || text.hasPrefix("[X] ") {
                text = text.dropFirst(4)
            } else {
                return text
            }
        }
    }

    /// Emphasis, code and strikethrough markers, link and image targets, HTML tags, table pipes.
    private static func stripInline(_ text: Substring) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "*", "_", "~", "`", "[", "|", "\\":
                if character == "|" { result.append(" ") }
                if character == "\\", let next = text.index(index, offsetBy: 1, limitedBy: text.endIndex), next < text.endIndex {
                    result.append(text[next])
                    index = text.index(after: next)
                    continue
                }
            case "!" where text[text.index(after: index)...].first == "[":
                break
            case "]":
                // `](target)`: the target is not text.
                let next = text.index(after: index)
                if next < text.endIndex, text[next] == "(", let close = text[next...].firstIndex(of: ")") {
                    index = text.index(after: close)
                    continue
                }
            case "<":
                // An HTML tag or autolink: `<…>` on one line.
                if let close = text[index...].firstIndex(of: ">") {
                    let inner = text[text.index(after: index)..<close]
                    if inner.hasPrefix("http://") || inner.hasPrefix("https://") || inner.contains("@") {
                        result.append(contentsOf: inner)
                    }
                    index = text.index(after: close)
                    continue
                }
                result.append(character)
            default:
                result.append(character)
            }
            index = text.index(after: index)
        }
        return result
    }
}
