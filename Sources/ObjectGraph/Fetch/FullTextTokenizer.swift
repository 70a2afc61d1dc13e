import Foundation

/// Words as FTS5's `unicode61` tokenizer (with `remove_diacritics 2`) finds them, in Swift: for
/// building queries from a writer's text and for matching unsaved objects in memory.
///
/// A word is a run of letters, digits, private-use characters and combining marks; everything else
/// separates words. Words compare folded: decomposed, marks removed, lower-cased. This follows
/// SQLite closely enough for queries and pending changes; where Unicode tables differ in rare
/// characters, only unsaved objects can be matched differently from saved ones.
enum FullTextTokenizer {
    /// The words of `text`, as typed (not folded).
    static func words(in text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// A word as the index compares it.
    static func fold(_ word: String) -> String {
        let decomposed = word.decomposedStringWithCanonicalMapping.unicodeScalars.filter { !isMark($0) }
        return String(String.UnicodeScalarView(decomposed)).lowercased()
    }

    /// The folded words of `text`, in order.
    static func foldedWords(in text: String) -> [String] {
        words(in: text).map(fold).filter { !$0.isEmpty }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return isMark(scalar)
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
