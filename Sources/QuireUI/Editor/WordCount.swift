/// Counts the words of a Markdown text the way a writer counts them.
///
/// A word is a run of letters, digits and combining marks; an apostrophe, hyphen, period or
/// underscore between two such characters joins them ("don't", "well-known", "3.14" are one word
/// each). Markdown syntax (`#`, `*`, `>`, `-`, brackets) holds no letters and is not counted. Han
/// ideographs and kana are written without spaces, so each one counts as a word, as word processors
/// count East Asian text.
enum WordCount {
    /// The number of words in `text`.
    static func of(_ text: String) -> Int {
        var count = 0
        var state = State.outside
        for scalar in text.unicodeScalars {
            if isCountedAlone(scalar) {
                count += 1
                state = .outside
            } else if isWordCharacter(scalar) {
                if state == .outside { count += 1 }
                state = .inWord
            } else if state == .inWord, joiners.contains(scalar) {
                state = .afterJoiner
            } else {
                state = .outside
            }
        }
        return count
    }

    private enum State {
        case outside
        case inWord
        /// Just after a joiner that followed a word character: a word character continues the word.
        case afterJoiner
    }

    /// Characters that join two word characters into one word.
    private static let joiners: Set<Unicode.Scalar> = ["'", "\u{2019}", "-", "\u{2010}", ".", "_"]

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType != nil { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: return true
        default: return false
        }
    }

    /// Han ideographs, hiragana and katakana (full and half width).
    private static func isCountedAlone(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isIdeographic { return true }
        switch scalar.value {
        case 0x3041...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: return true
        default: return false
        }
    }
}
