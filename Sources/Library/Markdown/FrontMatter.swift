/// The YAML front matter at the top of a Markdown file, read by libyaml (``FrontMatterYAML``): a
/// mapping of keys to plain, single- or double-quoted scalars, sequences of scalars (flow `[a, "b"]`
/// or block `- item` lines), or null.
///
/// Keys this importer does not know are skipped whatever their value (nested mappings and block
/// scalars included); a known key with a value outside that shape is an error, reported with its
/// line, as is front matter that is not YAML, or not a mapping.
package struct FrontMatter {
    /// A value of a known shape.
    package enum Value: Equatable {
        case null
        /// A scalar, with whether it was quoted (quoted scalars are always strings).
        case scalar(String, quoted: Bool)
        case sequence([String])
        /// A value outside that shape (nested mapping, block scalar, multi-line, alias), described.
        case unsupported(String)
    }

    package struct Entry {
        package let value: Value
        package let line: Int
    }

    /// The entries by key; a repeated key keeps its last value, as YAML parsers commonly do.
    package let entries: [String: Entry]
    /// The number of lines up to and including the closing delimiter.
    package let lineCount: Int
    /// The text after the front matter: the file's body, byte for byte.
    package let body: Substring

    /// Splits `text` into front matter and body. Returns `nil` when the text does not start with a
    /// front matter block (`---` on the first line and a closing `---` or `...` line).
    package init?(splitting text: String) throws(FrontMatterError) {
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
        entries = try FrontMatterYAML.entries(of: lines[1..<closing].map(\.content).joined(separator: "\n"), firstLine: 2)
    }

    /// The value of `key` and its line, if present.
    package subscript(key: String) -> Entry? { entries[key] }

    private static func isDelimiter(_ line: Substring, allowingDots: Bool) -> Bool {
        var text = line
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text == "---" || (allowingDots && text == "...")
    }
}

/// A front matter block that is not YAML, or not a mapping, or nests too deep: the line (from 1,
/// the opening `---` being line 1) and the reason, as libyaml or the reader words it.
package struct FrontMatterError: Error {
    package let line: Int
    package let reason: String
}
