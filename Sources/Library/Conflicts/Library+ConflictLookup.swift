import Foundation

extension Library {
    /// The open conflict `text` names, as the command line names one: the conflict's ID, or the ID
    /// of an article that has exactly one open conflict, each whole or by its start (at least four
    /// hexadecimal digits). A whole conflict ID also finds a resolved conflict (whose resolution
    /// then says so). Throws ``ConflictLookupError`` saying which IDs are expected.
    public func conflict(matching text: String) async throws -> ConflictSnapshot {
        let open = try await openConflicts()
        if let id = UUID(uuidString: text), !open.contains(where: { $0.id == id }), !open.contains(where: { $0.articleID == id }) {
            do {
                return try await conflict(id)
            } catch LibraryError.conflictNotFound {
                throw ConflictLookupError.noMatch(text)
            }
        }
        // Both kinds of ID name a conflict: its own, and its article's when that has only one.
        var byArticle: [UUID: [ConflictSnapshot]] = [:]
        for conflict in open { byArticle[conflict.articleID, default: []].append(conflict) }
        let candidates = open.map(\.id) + Array(byArticle.keys)
        let match = try IDPrefix(text).match(in: candidates, noMatch: ConflictLookupError.noMatch(text)) {
            ConflictLookupError.ambiguous(text, matches: $0)
        }
        if let conflict = open.first(where: { $0.id == match }) { return conflict }
        let ofArticle = byArticle[match] ?? []
        guard ofArticle.count == 1 else { throw ConflictLookupError.severalConflicts(article: match, conflicts: ofArticle.map(\.id)) }
        return ofArticle[0]
    }
}

/// Why ``Library/conflict(matching:)`` found no one conflict.
public enum ConflictLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No open conflict's ID, and no ID of an article with an open conflict, is or begins with this.
    case noMatch(String)
    /// Several conflict or article IDs begin with this text.
    case ambiguous(String, matches: [UUID])
    /// The article has more than one open conflict: name one by its own ID.
    case severalConflicts(article: UUID, conflicts: [UUID])

    public var description: String {
        switch self {
        case .noMatch(let text):
            "no open conflict has an ID beginning with '\(text)', nor has an article with one open conflict: give a conflict's ID or its article's, as 'quire conflicts' lists them"
        case let .ambiguous(text, matches):
            "\(matches.count) conflicts or articles have IDs beginning with '\(text)'; give more of the ID: " + IDPrefix.list(matches)
        case let .severalConflicts(article, conflicts):
            "article \(article.uuidString.lowercased()) has \(conflicts.count) open conflicts; give the conflict's ID: " + IDPrefix.list(conflicts)
        }
    }
}
