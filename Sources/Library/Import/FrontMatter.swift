/// The YAML front matter at the top of a Markdown file, in the subset that Markdown tools write:
/// `key: value` lines whose values are plain, single- or double-quoted scalars, flow sequences
/// (`[a, "b"]`), block sequences (`- item` lines under a key) or null; comments and blank lines.
///
/// Keys this importer does not know are skipped whatever their value (nested mappings and block
/// scalars included); a known key with a value outside the subset is an error, reported with its line.
struct FrontMatter {
    /// A value of a known shape.
    enum Value: Equatable {
        case null
        /// A scalar, with whether it was quoted (quoted scalars are always strings).
        case scalar(String, quoted: Bool)
        case sequence([String])
        /// A value outside the subset (nested mapping, block scalar, multi-line), described.
        case unsupported(String)
    }

    struct Entry {
        let value: Value
        let line: Int
    }

    /// The entries by key; a repeated key keeps its last value, as YAML parsers commonly do.
    private(set) var entries: [String: Entry] = [:]
    /// The number of lines up to and including the closing delimiter.
    let lineCount: Int
    /// The text after the front matter: the file's body, byte for byte.
    let body: Substring

    /// Splits `text` into front matter and body. Returns `nil` when the text does not start with a
    /// front matter block (`---` on the first line and a closing `---` or `...` line).
    init?(splitting text: String) throws(FrontMatterError) {
        var lines: [(content: Substring, end: String.Index)] = []
        var start = text.startIndex
        var closing: Int?
        // Lines are cut at "\n" scalars: as Characters, "\r\n" is one grapheme that is not "\n".
        let scalars = text.unicodeScalars
        while start < text.endIndex {
            let newline = scalars[start...].firstIndex(of: "\n") ?? text.endIndex
            let end = newline == text.endIndex ? newline : scalars.index(after: newline)
            var contentEnd = newline
            if contentEnd > start, scalars[scalars.index(before: contentEnd)] == "\r" {
                contentEnd = scalars.index(before: contentEnd)
            }
            let content = Substring(scalars[start..<contentEnd])
            lines.append((content, end))
            if lines.count == 1 {
                guard Self.isDelimiter(content, allowingDots: false) else { return nil }
            } else if Self.isDelimiter(content, allowingDots: true) {
                closing = lines.count - 1
                break
            }
            start = end
        }
        guard let closing else { return nil }
        lineCount = closing + 1
        body = text[lines[closing].end...]
        try parse(lines[1..<closing].map(\.content), firstLine: 2)
    }

    /// The value of `key` and its line, if present.
    subscript(key: String) -> Entry? { entries[key] }

    private static func isDelimiter(_ line: Substring, allowingDots: Bool) -> Bool {
        var text = line
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text == "---" || (allowingDots && text == "...")
    }

    private mutating func parse(_ lines: [Substring], firstLine: Int) throws(FrontMatterError) {
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let number = firstLine + index
            index += 1
            if Self.isBlankOrComment(line) { continue }
            if line.unicodeScalars.first == " " || line.unicodeScalars.first == "\t" {
                throw FrontMatterError(line: number, reason: "indented line outside a value")
            }
            guard let colon = Self.keySeparator(in: line) else {
                throw FrontMatterError(line: number, reason: "expected 'key: value'")
            }
            let key = String(line.unicodeScalars[..<colon]).trimmingWhitespace()
            let rest = Substring(line.unicodeScalars[line.unicodeScalars.index(after: colon)...])
            // Lines indented under the key, and `- item` lines, belong to its value.
            var continuation: [Substring] = []
            while index < lines.count {
                let next = lines[index]
                let first = next.unicodeScalars.first
                if Self.isBlankOrComment(next) || first == " " || first == "\t" || next.hasPrefix("- ") || next == "-" {
                    continuation.append(next)
                    index += 1
                } else {
                    break
                }
            }
            while let last = continuation.last, Self.isBlankOrComment(last) { continuation.removeLast() }
            entries[key] = Entry(value: try Self.value(rest, continuation: continuation, line: number), line: number)
        }
    }

    private static func value(_ text: Substring, continuation: [Substring], line: Int) throws(FrontMatterError) -> Value {
        let inline = String(text).trimmingWhitespace()
        if inline.isEmpty || inline.hasPrefix("#") {
            guard !continuation.isEmpty else { return .null }
            var items: [String] = []
            for item in continuation where !isBlankOrComment(item) {
                let trimmed = String(item).trimmingWhitespace()
                guard trimmed.hasPrefix("-") else { return .unsupported("a nested mapping") }
                let itemText = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
                guard case .scalar(let value, _) = try scalar(itemText, line: line) else {
                    return .unsupported("a nested sequence")
                }
                items.append(value)
            }
            return .sequence(items)
        }
        guard continuation.allSatisfy(isBlankOrComment) else { return .unsupported("a value over several lines") }
        if inline.hasPrefix("|") || inline.hasPrefix(">") { return .unsupported("a block scalar") }
        if inline.hasPrefix("[") { return try flowSequence(inline, line: line) }
        if inline.hasPrefix("{") { return .unsupported("a flow mapping") }
        return try scalar(Substring(inline), line: line)
    }

    /// A single scalar: quoted, or plain up to a ` #` comment. `null`, `~` and nothing are null.
    private static func scalar(_ text: Substring, line: Int) throws(FrontMatterError) -> Value {
        var reader = ScalarReader(text, line: line)
        let value = try reader.readScalar(stoppingAt: [])
        try reader.expectEnd()
        return value
    }

    private static func flowSequence(_ text: String, line: Int) throws(FrontMatterError) -> Value {
        var reader = ScalarReader(Substring(text), line: line)
        reader.skip("[")
        var items: [String] = []
        reader.skipWhitespace()
        if reader.skip("]") {
            try reader.expectEnd()
            return .sequence([])
        }
        while true {
            switch try reader.readScalar(stoppingAt: [",", "]"]) {
            case .scalar(let item, _): items.append(item)
            case .null: items.append("")
            default: return .unsupported("a nested sequence")
            }
            reader.skipWhitespace()
            if reader.skip(",") { continue }
            if reader.skip("]") { break }
            throw FrontMatterError(line: line, reason: "expected ',' or ']' in a sequence")
        }
        try reader.expectEnd()
        return .sequence(items)
    }

    private static func isBlankOrComment(_ line: Substring) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.isEmpty || trimmed.first == "#"
    }

    /// The colon that ends a key: the first followed by a space or the end of the line.
    private static func keySeparator(in line: Substring) -> Substring.Index? {
        let scalars = line.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            if scalars[index] == ":" {
                let next = scalars.index(after: index)
                if next == scalars.endIndex || scalars[next] == " " || scalars[next] == "\t" { return index }
            }
            index = scalars.index(after: index)
        }
        return nil
    }
}

/// A front matter block that is not the YAML subset Quire reads.
struct FrontMatterError: Error {
    let line: Int
    let reason: String
}

/// Reads YAML scalars Unicode scalar by scalar: as Characters, a quote or backslash followed by a
/// combining mark would be one grapheme and hide the quote.
private struct ScalarReader {
    private let text: [Unicode.Scalar]
    private var index = 0
    private let line: Int

    init(_ text: Substring, line: Int) {
        self.text = Array(text.unicodeScalars)
        self.line = line
    }

    mutating func skipWhitespace() {
        while index < text.count, text[index] == " " || text[index] == "\t" { index += 1 }
    }

    @discardableResult
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < text.count, text[index] == character else { return false }
        index += 1
        return true
    }

    /// After a value only white space and a comment may follow.
    mutating func expectEnd() throws(FrontMatterError) {
        skipWhitespace()
        guard index == text.count || text[index] == "#" else {
            var rest = ""
            rest.unicodeScalars.append(contentsOf: text[index...])
            throw FrontMatterError(line: line, reason: "unexpected text after a value: \(rest)")
        }
    }

    mutating func readScalar(stoppingAt stops: Set<Unicode.Scalar>) throws(FrontMatterError) -> FrontMatter.Value {
        skipWhitespace()
        guard index < text.count else { return .null }
        switch text[index] {
        case "\"": return .scalar(try readDoubleQuoted(), quoted: true)
        case "'": return .scalar(try readSingleQuoted(), quoted: true)
        default:
            var value = ""
            while index < text.count, !stops.contains(text[index]) {
                // " #" starts a comment.
                if text[index] == "#", index > 0, text[index - 1] == " " || text[index - 1] == "\t" { break }
                value.unicodeScalars.append(text[index])
                index += 1
            }
            value = value.trimmingWhitespace()
            if value.isEmpty || value == "~" || value == "null" || value == "Null" || value == "NULL" { return .null }
            return .scalar(value, quoted: false)
        }
    }

    private mutating func readSingleQuoted() throws(FrontMatterError) -> String {
        index += 1
        var value = ""
        while index < text.count {
            if text[index] == "'" {
                if index + 1 < text.count, text[index + 1] == "'" {
                    value.append("'")
                    index += 2
                    continue
                }
                index += 1
                return value
            }
            value.unicodeScalars.append(text[index])
            index += 1
        }
        throw FrontMatterError(line: line, reason: "unterminated single-quoted string")
    }

    private mutating func readDoubleQuoted() throws(FrontMatterError) -> String {
        index += 1
        var value = ""
        while index < text.count {
            let character = text[index]
            index += 1
            if character == "\"" { return value }
            guard character == "\\" else {
                value.unicodeScalars.append(character)
                continue
            }
            guard index < text.count else { break }
            let escape = text[index]
            index += 1
            switch escape {
            case "0": value.append("\0")
            case "a": value.append("\u{07}")
            case "b": value.append("\u{08}")
            case "t", "\t": value.append("\t")
            case "n": value.append("\n")
            case "v": value.append("\u{0B}")
            case "f": value.append("\u{0C}")
            case "r": value.append("\r")
            case "e": value.append("\u{1B}")
            case " ": value.append(" ")
            case "\"": value.append("\"")
            case "/": value.append("/")
            case "\\": value.append("\\")
            case "N": value.append("\u{85}")
            case "_": value.append("\u{A0}")
            case "L": value.append("\u{2028}")
            case "P": value.append("\u{2029}")
            case "x": value.unicodeScalars.append(try readHex(digits: 2))
            case "u": value.unicodeScalars.append(try readHex(digits: 4))
            case "U": value.unicodeScalars.append(try readHex(digits: 8))
            default: throw FrontMatterError(line: line, reason: "unknown escape \\\(escape)")
            }
        }
        throw FrontMatterError(line: line, reason: "unterminated double-quoted string")
    }

    private mutating func readHex(digits: Int) throws(FrontMatterError) -> Unicode.Scalar {
        var digitsText = ""
        digitsText.unicodeScalars.append(contentsOf: text[index..<min(text.count, index + digits)])
        guard index + digits <= text.count,
              let value = UInt32(digitsText, radix: 16),
              let scalar = Unicode.Scalar(value)
        else { throw FrontMatterError(line: line, reason: "bad \(digits)-digit hexadecimal escape") }
        index += digits
        return scalar
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        let characters = drop { $0 == " " || $0 == "\t" }
        return String(characters.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
