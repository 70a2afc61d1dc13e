import Foundation
import SyncProtocol

/// The search field's text taken apart: `tag:NAME` and `status:draft|ready|published` narrow the
/// list, every other word is searched for in titles and bodies.
///
///     SearchTerms("tag:swift status:ready gtk lis")   // tags ["swift"], statuses [.ready], text "gtk lis"
///
/// A name with spaces is quoted: `tag:"long reads"`. Keywords are case-insensitive, names are not
/// (tags are matched exactly, as they sync). A status no article can have matches nothing. Pure.
public struct SearchTerms: Sendable, Hashable {
    /// Tags each article must carry.
    public var tags: [String] = []
    /// Statuses of which the article must have one (several `status:` words widen the choice).
    public var statuses: [ArticleStatus] = []
    /// Whether a `status:` word named no status (the search then finds nothing).
    public var hasUnknownStatus = false
    /// The rest, for the full-text search.
    public var text: String = ""

    /// Takes `searchText` apart.
    public init(_ searchText: String) {
        var words: [String] = []
        var scanner = Substring(searchText)
        while let word = Self.nextWord(&scanner) {
            if let name = Self.value(of: "tag:", in: word) {
                if !name.isEmpty { tags.append(name) }
            } else if let name = Self.value(of: "status:", in: word) {
                if let status = ArticleStatus(rawValue: name.lowercased()) {
                    statuses.append(status)
                } else if !name.isEmpty {
                    hasUnknownStatus = true
                }
            } else {
                words.append(word)
            }
        }
        text = words.joined(separator: " ")
    }

    /// Whether anything narrows the list besides the full-text words.
    public var hasFilters: Bool { !tags.isEmpty || !statuses.isEmpty || hasUnknownStatus }

    /// The value after `keyword` (case-insensitive), unquoted; nil when the word is not one.
    private static func value(of keyword: String, in word: String) -> String? {
        guard word.count >= keyword.count, word.prefix(keyword.count).lowercased() == keyword else { return nil }
        var value = word.dropFirst(keyword.count)
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
        return String(value)
    }

    /// The next word, where a double quote keeps spaces inside the word until it closes.
    private static func nextWord(_ text: inout Substring) -> String? {
        text = text.drop { $0.isWhitespace }
        guard !text.isEmpty else { return nil }
        var word = ""
        var quoted = false
        while let character = text.first, quoted || !character.isWhitespace {
            if character == "\"" { quoted.toggle() }
            word.append(character)
            text = text.dropFirst()
        }
        return word
    }
}
