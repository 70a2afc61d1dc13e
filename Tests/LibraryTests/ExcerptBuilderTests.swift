import Platform
import Testing
@testable import Library

/// The excerpt's words read by byte where the text is ASCII (``ExcerptBuilder/firstWord(of:)``)
/// against the definition, reading by character: runs of characters that are not
/// `Character.isWhitespace`, counted in characters.
@Suite struct ExcerptBuilderTests {
    /// Random Unicode text, heavy with what makes a character of more than one scalar next to
    /// ASCII (combining marks, joiners, CR LF, Hangul, flags, prepended marks) and with every
    /// kind of whitespace: the words found and their lengths are those found by character.
    /// Replay a failure from the seed it names.
    @Test(arguments: 0..<20)
    func wordsReadByByteAreTheWordsReadByCharacter(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for round in 0..<2_000 {
            let text = Self.text(using: &random)
            var found: [(String, Int)] = []
            var rest = text[...]
            while let (word, length) = ExcerptBuilder.firstWord(of: rest) {
                found.append((String(word), length))
                rest = rest[word.endIndex...]
            }
            let expected = text.split(whereSeparator: \.isWhitespace).map { (String($0), $0.count) }
            #expect(found.map(\.0) == expected.map(\.0), "seed \(seed), round \(round): \(text.debugDescription)")
            #expect(found.map(\.1) == expected.map(\.1), "seed \(seed), round \(round): \(text.debugDescription)")
        }
    }

    /// The same random text given in pieces to excerpts of random lengths: the excerpt is the one
    /// the builder made before it read bytes (``CharacterExcerpt``).
    @Test(arguments: 0..<20)
    func anExcerptIsTheOneReadByCharacter(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for round in 0..<500 {
            let limit = Int.random(in: 1...60, using: &random)
            var excerpt = ExcerptBuilder(limit: limit)
            var reference = CharacterExcerpt(limit: limit)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let piece = Self.text(using: &random)
                excerpt.append(piece)
                reference.append(piece)
                #expect(excerpt.text == reference.text, "seed \(seed), round \(round), limit \(limit): \(piece.debugDescription)")
                #expect(excerpt.isFull == reference.isFull, "seed \(seed), round \(round), limit \(limit): \(piece.debugDescription)")
            }
        }
    }

    /// Every ASCII character, alone and before a combining accent, is whitespace by byte exactly
    /// when it is by character.
    @Test func everyASCIICharacterIsWhitespaceByByteAsByCharacter() {
        for value in UInt8(0)..<0x80 {
            let character = String(UnicodeScalar(value))
            for text in ["a\(character)b", "a\(character)\u{301}b", "\(character)", "\(character)\u{301}"] {
                var words: [String] = []
                var rest = text[...]
                while let (word, _) = ExcerptBuilder.firstWord(of: rest) {
                    words.append(String(word))
                    rest = rest[word.endIndex...]
                }
                #expect(words == text.split(whereSeparator: \.isWhitespace).map(String.init), "\(text.debugDescription)")
            }
        }
    }

    /// Pieces of text: mostly ASCII words and spaces, with the scalars that join or extend
    /// characters, every Unicode whitespace, and now and then any scalar at all.
    private static let pieces: [String] = [
        "a", "word", "Don't", "3.14", "x", "Z", "-", "*", "#", "0", "~",
        " ", " ", " ", "  ", "\t", "\n", "\r", "\r\n", "\n\r", "\u{0B}", "\u{0C}", "\u{00}", "\u{1C}", "\u{1F}", "\u{7F}",
        "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
        "\u{200B}", "\u{180E}", "\u{FEFF}",
        "\u{301}", "\u{308}", "\u{200D}", "\u{200C}", "\u{FE0F}", "\u{20E3}", "\u{1F3FD}", "\u{E0020}",
        "é", "e\u{301}", "ß", "İ", "ﬁ", "Ω", "𝔸", "\u{FFFD}",
        "\u{1F1EB}", "\u{1F1F7}", "\u{1F44D}", "\u{1F469}\u{200D}\u{1F4BB}", "\u{2764}",
        "\u{0600}", "\u{0903}", "\u{0E33}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "漢", "ひ",
    ]

    private static func text(using random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...24, using: &random) {
            if Int.random(in: 0..<20, using: &random) == 0 {
                let value = UInt32.random(in: 0...0x10FFFF, using: &random)
                text.unicodeScalars.append(UnicodeScalar(value) ?? "\u{FFFD}")
            } else {
                text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
        }
        return text
    }
}

/// The excerpt as ``ExcerptBuilder`` made it before it read ASCII by byte: every character a
/// grapheme and whitespace lookup. The reference its equivalence is tested against.
private struct CharacterExcerpt {
    let limit: Int
    private(set) var text = ""
    private(set) var isFull = false
    private var count = 0

    init(limit: Int) { self.limit = limit }

    mutating func append(_ piece: String) {
        var rest = piece[...]
        while !isFull, let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            let end = rest[start...].firstIndex(where: \.isWhitespace) ?? rest.endIndex
            let word = rest[start..<end]
            rest = rest[end...]
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
