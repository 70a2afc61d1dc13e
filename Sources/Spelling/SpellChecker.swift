/// A misspelled word of a text: where it is and what it says.
public struct Misspelling: Sendable, Hashable {
    /// Where the word is, in Unicode scalars from the start of the text (GTK's character offsets).
    public var range: Range<Int>
    /// The word as written.
    public var word: String

    /// A misspelling at `range`.
    public init(range: Range<Int>, word: String) {
        self.range = range
        self.word = word
    }
}

/// Checks the prose of Markdown texts in one language (a dictionary ``SpellingDictionaries`` opened).
///
/// Words in code, URLs, link targets, front matter and HTML tags are never flagged
/// (``ProseRanges``); words the writer added (``accept(_:)``) or ignores (`ignoring`) neither.
public struct SpellChecker: Sendable {
    /// The dictionary's language tag (`en_US`).
    public let language: String
    let dictionaries: SpellingDictionaries

    /// Whether `word` is spelled right (words the dictionary cannot judge count as right).
    public func isCorrect(_ word: String) -> Bool {
        let spelled = Self.dictionaryForm(of: word)
        return dictionaries.withDictionary(language) { enchant_dict_check($0, spelled, -1) <= 0 } ?? true
    }

    /// Up to `limit` corrections for `word`, the dictionary's best first.
    public func suggestions(for word: String, limit: Int = 5) -> [String] {
        let spelled = Self.dictionaryForm(of: word)
        return dictionaries.withDictionary(language) { dictionary in
            var count = 0
            guard let list = enchant_dict_suggest(dictionary, spelled, -1, &count) else { return [] }
            defer { enchant_dict_free_string_list(dictionary, list) }
            return (0..<min(count, limit)).compactMap { list[$0].map { String(cString: $0) } }
        } ?? []
    }

    /// Makes the dictionary accept `words` from now on, for every checker of this language (the
    /// writer's personal dictionary; it lives in the library, so nothing is written here).
    public func accept(_ words: some Sequence<String>) {
        dictionaries.withDictionary(language) { dictionary in
            for word in words { enchant_dict_add_to_session(dictionary, Self.dictionaryForm(of: word), -1) }
        }
    }

    /// The misspelled words of `text`'s prose, in order, leaving out the words in `ignoring`.
    /// With `within`, only the words that overlap that range of scalar offsets (an edited
    /// paragraph); the lines above it are still read for the blocks they open (a code block's
    /// fence may sit far above), but only the lines it touches are searched for prose.
    public func misspellings(in text: String, within: Range<Int>? = nil, ignoring: Set<String> = []) -> [Misspelling] {
        let scalars = Array(text.unicodeScalars)
        var found: [Misspelling] = []
        dictionaries.withDictionary(language) { dictionary in
            for prose in ProseRanges.ranges(in: scalars, lines: within) {
                if let within, prose.upperBound < within.lowerBound || prose.lowerBound > within.upperBound { continue }
                for range in Words.ranges(in: scalars, within: prose) {
                    if let within, range.upperBound < within.lowerBound || range.lowerBound > within.upperBound { continue }
                    var word = String.UnicodeScalarView()
                    word.append(contentsOf: scalars[range])
                    let text = String(word)
                    if ignoring.contains(text) { continue }
                    if enchant_dict_check(dictionary, Self.dictionaryForm(of: text), -1) > 0 {
                        found.append(Misspelling(range: range, word: text))
                    }
                }
            }
        }
        return found
    }

    /// The word as the hunspell dictionaries spell it: the typographic apostrophe as `'`.
    static func dictionaryForm(of word: String) -> String {
        guard word.unicodeScalars.contains("\u{2019}") else { return word }
        return String(String.UnicodeScalarView(word.unicodeScalars.map { $0 == "\u{2019}" ? "'" : $0 }))
    }
}

import CEnchant
import Foundation
