/// What a writer searches for in a full-text index: words, each found as a word of the indexed
/// text (or as the beginning of one, for search as you type).
///
///     FullTextQuery("swift lin")                          // "swift*" AND "lin*"
///     FullTextQuery("e-mail", matchingPrefixes: false)    // the words "e" and "mail", side by side
///
/// The text is never read as FTS5 query syntax: it is split at white space into terms, each term
/// into words (runs of letters, digits and marks, as FTS5's `unicode61` tokenizer sees them), and
/// each term becomes one quoted phrase. Quotes, `*`, `:`, `^`, parentheses, `AND`, `OR`, `NOT`,
/// `NEAR` and column names in the writer's text are plain text, never operators. Punctuation
/// separates words, so "e-mail" finds the words "e" and "mail" next to each other.
///
/// Every term must match, in any indexed attribute. A query without any word (empty, or only
/// punctuation) matches no object.
public struct FullTextQuery: Sendable, Hashable, CustomStringConvertible {
    /// The text as the writer typed it.
    public let text: String
    /// Whether the last word of each term matches any word it begins (search as you type).
    public let matchesPrefixes: Bool
    /// The words of each term, as typed.
    let phrases: [[String]]

    /// A query for the words in `text`; with `matchingPrefixes`, "lin" also finds "Linux".
    public init(_ text: String, matchingPrefixes: Bool = true) {
        self.text = text
        self.matchesPrefixes = matchingPrefixes
        phrases = text.split(whereSeparator: \.isWhitespace)
            .map { FullTextTokenizer.words(in: String($0)) }
            .filter { !$0.isEmpty }
    }

    /// Whether the query holds no word to search for (it then matches nothing).
    public var isEmpty: Bool { phrases.isEmpty }

    /// The FTS5 query: one quoted phrase per term, `*` after each when prefixes match. Words hold
    /// no quote character, so the quoting below only guards against a tokenizer that disagrees.
    var expression: String {
        phrases.map { words in
            "\"" + words.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\""
                + (matchesPrefixes ? " *" : "")
        }.joined(separator: " ")
    }

    public var description: String { "FullTextQuery(\(expression))" }
}
