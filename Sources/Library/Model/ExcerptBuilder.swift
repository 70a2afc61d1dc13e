/// Collects plain text up to a length, one space between words. A word is a run of characters
/// that are not whitespace (`Character.isWhitespace`); its length is counted in characters.
struct ExcerptBuilder {
    let limit: Int
    private(set) var text = ""
    private(set) var isFull = false
    private var count = 0

    init(limit: Int) { self.limit = limit }

    var isEmpty: Bool { text.isEmpty }

    /// Adds `piece`'s words until the excerpt is full. The words are found one at a time, not
    /// split all at once: a block is often a whole paragraph of which the excerpt takes the
    /// first words (the first sync reads each pulled article's excerpt).
    mutating func append(_ piece: String) {
        var rest = piece[...]
        while !isFull, let (word, length) = Self.firstWord(of: rest) {
            rest = rest[word.endIndex...]
            let separator = text.isEmpty ? 0 : 1
            if count + separator + length > limit {
                if text.isEmpty { text = String(word.prefix(limit - 1)) }
                text += "…"
                isFull = true
                return
            }
            if separator == 1 { text += " " }
            text += word
            count += separator + length
        }
    }

    /// The first word of `text` (which starts at a character boundary) and its length in
    /// characters, or nil when `text` holds only whitespace.
    ///
    /// ASCII is read by byte: every character read otherwise is a grapheme break and a whitespace
    /// lookup, the larger part of making an excerpt. An ASCII byte is a character of its own when
    /// the byte after it is ASCII too (or there is none): only a non-ASCII scalar (a combining
    /// accent, a joiner, a variation selector) can extend it, and CR LF, the one pair of ASCII
    /// bytes that makes one character, is whitespace on both sides of a word. A character that
    /// starts with an ASCII byte is whitespace when that byte is (`Character.isWhitespace` asks
    /// its first scalar). Everything else is read by character from where the bytes stopped.
    static func firstWord(of text: Substring) -> (word: Substring, length: Int)? {
        let utf8 = text.utf8
        guard let stop = utf8.withContiguousStorageIfAvailable({ asciiStop(in: $0) }) else {
            return firstWordByCharacter(of: text, from: text.startIndex)
        }
        func index(_ offset: Int) -> Substring.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        switch stop {
        case .onlyWhitespace:
            return nil
        case .beforeWord(let offset):
            return firstWordByCharacter(of: text, from: index(offset))
        case .wordEnd(let start, let end):
            return (text[index(start)..<index(end)], end - start)
        case .insideWord(let start, let offset):
            return word(of: text, from: index(start), readingOnFrom: index(offset), counted: offset - start)
        }
    }

    /// Where reading `bytes` as lone ASCII characters ends.
    private enum ASCIIStop {
        /// Nothing but whitespace.
        case onlyWhitespace
        /// At the character at `offset`, before any word: it is to be read as a character.
        case beforeWord(Int)
        /// A whole word: `start..<end`, one byte a character.
        case wordEnd(start: Int, end: Int)
        /// In the word that starts at `start`, at the character at `offset`, to be read as a
        /// character (those before it are one byte each).
        case insideWord(start: Int, Int)
    }

    private static func asciiStop(in bytes: UnsafeBufferPointer<UInt8>) -> ASCIIStop {
        func isLoneASCII(_ offset: Int) -> Bool {
            bytes[offset] < 0x80 && (offset + 1 == bytes.count || bytes[offset + 1] < 0x80)
        }
        var offset = 0
        while offset < bytes.count, isASCIIWhitespace(bytes[offset]) {
            guard isLoneASCII(offset) else { return .beforeWord(offset) }
            offset += 1
        }
        guard offset < bytes.count else { return .onlyWhitespace }
        guard bytes[offset] < 0x80 else { return .beforeWord(offset) }
        // A character that starts with an ASCII byte which is not whitespace starts a word.
        let start = offset
        while offset < bytes.count, !isASCIIWhitespace(bytes[offset]) {
            guard isLoneASCII(offset) else { return .insideWord(start: start, offset) }
            offset += 1
        }
        return .wordEnd(start: start, end: offset)
    }

    /// Unicode's whitespace among ASCII: tab, line feed, vertical tab, form feed, carriage
    /// return, space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// The first word of `text` from `start` on, read by character.
    private static func firstWordByCharacter(of text: Substring, from start: Substring.Index) -> (word: Substring, length: Int)? {
        guard let start = text[start...].firstIndex(where: { !$0.isWhitespace }) else { return nil }
        return word(of: text, from: start, readingOnFrom: start, counted: 0)
    }

    /// The word of `text` that starts at `start`, whose `counted` characters before `position`
    /// are read: the rest is read by character, up to whitespace or the end.
    private static func word(
        of text: Substring, from start: Substring.Index, readingOnFrom position: Substring.Index, counted: Int
    ) -> (word: Substring, length: Int) {
        var end = position
        var length = counted
        while end != text.endIndex, !text[end].isWhitespace {
            text.formIndex(after: &end)
            length += 1
        }
        return (text[start..<end], length)
    }
}
