import Foundation

/// What the article list shows of an article's text without reading its body: a plain-text
/// excerpt, a word count, and the title's sort key. Derived from the Markdown when it changes.
///
/// The Markdown is read by ``MarkdownProse``, on cmark-gfm's parse: only the text a reader sees
/// counts (no markup, no link or image targets, no raw HTML, no front matter). Code counts, spans
/// and blocks alike: a writer who puts code in an article wrote it for the reader, and a word
/// count that skipped it would undercount a technical article; the excerpt leaves code blocks out,
/// since a line of code says little in a list. Words are runs of letters, digits and marks (an
/// apostrophe, hyphen or underscore before a letter, or a point or comma between digits, does
/// not split one: `don't`, `well-known`, `snake_case`, `3.14`); each CJK character counts as a
/// word, as CJK word counts do. This is the one definition of a word: the library's stored count,
/// the list, the editor's status line and its reading time all come from ``wordCount(of:)`` or
/// ``summary(of:)``.
public enum ArticleText {
    /// How many characters an excerpt holds at most (an ellipsis marks a cut).
    public static let excerptLength = 180

    /// The key the list sorts titles by: case and accents folded, so "école" sorts with "Ecole".
    public static func sortKey(_ title: String) -> String {
        if let key = asciiSortKey(title) { return key }
        return title.trimmingCharacters(in: .whitespacesAndNewlines)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The key of an ASCII title, read by byte: Foundation's trimming and folding (through
    /// NSString) cost more than the rest of an article's title, and to ASCII they only trim
    /// whitespace (tab to carriage return, space) and lower A to Z. Nil for any other title.
    private static func asciiSortKey(_ title: String) -> String? {
        let key = title.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
            var (start, end) = (0, bytes.count)
            while start < end, isWhitespace(bytes[start]) { start += 1 }
            while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
            return String(unsafeUninitializedCapacity: end - start) { key in
                for (offset, byte) in bytes[start..<end].enumerated() {
                    key[offset] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
                }
                return end - start
            }
        }
        return key ?? nil
    }

    /// The body's excerpt and word count. A long body (a book-length article is saved after
    /// every pause in the writer's typing) is read by block (``BlockTally``): only the blocks
    /// that changed since it was last read go through cmark.
    public static func summary(of body: String) -> (excerpt: String, wordCount: Int) {
        guard body.utf8.count >= BlockTally.minimumBytes else { return read(body) }
        return BlockTally.shared.summary(of: body)
    }

    /// The excerpt and word count of the whole body, read through cmark in one pass.
    package static func read(_ body: String) -> (excerpt: String, wordCount: Int) {
        let summary = BlockSummary(reading: body)
        return summary.adding(to: ExcerptParts()).result(words: summary.wordCount)
    }

    /// The body's first words as one line of plain text, headings skipped unless there is nothing else.
    public static func excerpt(of body: String) -> String { summary(of: body).excerpt }

    /// The number of words in the body's text (code included, markup and link targets not).
    public static func wordCount(of body: String) -> Int { summary(of: body).wordCount }
}

/// Counts words in text given piece by piece (a block's text comes in several cmark nodes, and a
/// word may run across two: `**bold**ly`).
struct WordCounter {
    /// The words counted so far.
    private(set) var total = 0
    private var inWord = false
    private var previous: Unicode.Scalar = " "
    /// A scalar that joins two words if the next one is a letter (`don't`) or digit (`3.14`),
    /// with the scalar before it.
    private var pendingJoiner: (scalar: Unicode.Scalar, after: Unicode.Scalar)?

    /// Counts the words of UTF-8 text (ill-formed bytes are a replacement character).
    mutating func count(_ utf8: UnsafeBufferPointer<UInt8>) {
        var bytes = utf8.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue(let scalar): add(scalar)
            case .error: add("\u{FFFD}")
            case .emptyInput: return
            }
        }
    }

    /// Ends the word under way: the next text is another block.
    mutating func endWord() {
        pendingJoiner = nil
        inWord = false
        previous = " "
    }

    private mutating func add(_ scalar: Unicode.Scalar) {
        if let joiner = pendingJoiner {
            pendingJoiner = nil
            if !ArticleText.isJoiner(joiner.scalar, after: joiner.after, before: scalar) { inWord = false }
        }
        if ArticleText.isCJK(scalar) {
            total += 1
            inWord = false
        } else if ArticleText.isWordScalar(scalar) {
            if !inWord { total += 1 }
            inWord = true
        } else if inWord, ArticleText.mayJoin(scalar) {
            // "don't", "well-known", "3.14": one word if the next scalar continues it.
            pendingJoiner = (scalar, previous)
        } else {
            inWord = false
        }
        previous = scalar
    }
}

extension ArticleText {
    /// Whether `scalar` can join two parts of one word.
    fileprivate static func mayJoin(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "'", "’", "-", "_", ".", ",": return true
        default: return false
        }
    }

    /// An apostrophe, hyphen or underscore between letters, or a point or comma between digits.
    fileprivate static func isJoiner(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar, before next: Unicode.Scalar) -> Bool {
        switch scalar {
        case "'", "’", "-", "_": return isWordScalar(next) && !isCJK(next)
        case ".", ",": return isDigit(previous) && isDigit(next)
        default: return false
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? ("0"..."9").contains(scalar) : scalar.properties.numericType == .decimal
    }

    @inline(__always)
    fileprivate static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            // A letter with its case bit cleared is A...Z. (Three `ClosedRange.contains` calls,
            // not inlined, took a third of reading an article's summary and word count.)
            let value = scalar.value
            return (value | 0x20) &- 0x61 < 26 || value &- 0x30 < 10
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    fileprivate static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F, 0xAC00...0xD7AF:
            return true
        default:
            return false
        }
    }
}

/// What one piece of Markdown (a whole body, or one run of its blocks, ``BlockTally/runs(of:)``)
/// gives to the body's summary: its words, and the text of the blocks an excerpt could take,
/// read through cmark (``MarkdownProse``).
struct BlockSummary: Sendable {
    /// The piece's words.
    private(set) var wordCount = 0
    /// The headings before the piece's first prose, as far as an excerpt could take them.
    private var leadingHeadings: [String] = []
    /// The prose blocks, as far as an excerpt could take them.
    private var prose: [String] = []

    /// Reads `markdown`.
    init(reading markdown: String) {
        var words = WordCounter()
        var parts = ExcerptParts()
        // The block's text, kept only while an excerpt could still take it: a long body is
        // counted without being copied.
        var excerptText: [UInt8] = []
        MarkdownProse.read(markdown) { piece in
            switch piece {
            case .text(let utf8, let block):
                words.count(utf8)
                let needed = switch block {
                case .prose: !parts.prose.isFull
                case .heading: parts.prose.isEmpty && !parts.headings.isFull
                case .code: false
                }
                if needed { excerptText.append(contentsOf: utf8) }
            case .end(let block):
                words.endWord()
                guard !excerptText.isEmpty else { return }
                let text = String(decoding: excerptText, as: UTF8.self)
                if block == .heading {
                    leadingHeadings.append(text)
                    parts.headings.append(text)
                } else {
                    prose.append(text)
                    parts.prose.append(text)
                }
                excerptText.removeAll(keepingCapacity: true)
            }
        }
        wordCount = words.total
    }

    /// `parts` with this piece's blocks after them, as reading the two pieces as one text would
    /// give them (no Markdown construct reaches from one piece into the next).
    func adding(to parts: ExcerptParts) -> ExcerptParts {
        var parts = parts
        // Headings only until there is prose: an excerpt prefers prose.
        for heading in leadingHeadings where parts.prose.isEmpty && !parts.headings.isFull { parts.headings.append(heading) }
        for block in prose where !parts.prose.isFull { parts.prose.append(block) }
        return parts
    }
}

/// An excerpt under way: the prose and the headings read so far.
struct ExcerptParts {
    var prose = ExcerptBuilder(limit: ArticleText.excerptLength)
    var headings = ExcerptBuilder(limit: ArticleText.excerptLength)

    /// Whether more text cannot change the excerpt.
    var isFull: Bool { prose.isFull }

    /// The excerpt, prose or else the headings, with `words`.
    func result(words: Int) -> (excerpt: String, wordCount: Int) {
        (prose.isEmpty ? headings.text : prose.text, words)
    }
}
