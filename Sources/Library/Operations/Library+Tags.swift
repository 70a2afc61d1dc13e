import Foundation
import ObjectGraph

/// Tags across the library. A tag is part of each of its articles' synced content (articles sync
/// their tags by name), so renaming or deleting one writes an outbox operation for every article
/// that carries it, in the same save.
extension Library {
    /// Every tag with the number of its articles outside the trash, by name.
    public func tags() async throws -> [TagSummary] {
        try await read { context in try LibraryCounts.tags(in: context) }
    }

    /// Renames a tag on every article that carries it. Renaming to the name of another tag merges
    /// the two: its articles carry that tag, and this one is deleted.
    public func renameTag(_ name: String, to newName: String) async throws {
        try await write { context, now in try Self.renameTag(name, to: newName, in: context, at: now) }
    }

    /// Removes a tag from every article and deletes it. Returns the articles that carried it (for
    /// an Undo, which tags them again).
    @discardableResult
    public func deleteTag(_ name: String) async throws -> [UUID] {
        try await write { context, now in try Self.deleteTag(name, in: context, at: now) }
    }

    static func renameTag(_ name: String, to newName: String, in context: ManagedObjectContext, at now: Date) throws {
        guard let tag = try LibraryNames.tag(named: name, in: context) else { throw TagError.tagNotFound(name) }
        guard newName != name else { return }
        try LibraryNames.check(newName, kind: "tag")
        let articles = Array(tag.articles)
        if let other = try LibraryNames.tag(named: newName, in: context) {
            for article in articles {
                article.$tags.remove(tag)
                if !article.tags.contains(other) { article.$tags.insert(other) }
            }
            context.delete(tag)
        } else {
            tag.name = newName
        }
        try LocalChanges.record(in: context, at: now, alsoChanged: articles)
    }

    static func deleteTag(_ name: String, in context: ManagedObjectContext, at now: Date) throws -> [UUID] {
        guard let tag = try LibraryNames.tag(named: name, in: context) else { throw TagError.tagNotFound(name) }
        let articles = Array(tag.articles)
        for article in articles { article.$tags.remove(tag) }
        context.delete(tag)
        try LocalChanges.record(in: context, at: now, alsoChanged: articles)
        return articles.map(\.id)
    }
}

/// A tag as the sidebar and `quire tags` show it.
public struct TagSummary: Sendable, Hashable, Codable {
    /// The tag's name.
    public var name: String
    /// Articles that carry it, outside the trash.
    public var articleCount: Int
}

/// Why a tag operation could not be carried out.
public enum TagError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No tag has this name.
    case tagNotFound(String)

    public var description: String {
        switch self {
        case .tagNotFound(let name): "there is no tag named '\(name)'"
        }
    }
}
