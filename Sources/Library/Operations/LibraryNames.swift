import Foundation
import ObjectGraph
import Platform
import SyncProtocol

/// Finding articles, folders and tags by what the writer and the sync protocol call them: IDs and
/// names. Names are checked as the protocol carries them.
enum LibraryNames {
    /// The article with this ID.
    static func article(_ id: UUID, in context: ManagedObjectContext) throws -> StoredArticle {
        guard let article = try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id, fetchLimit: 1)).first else {
            throw LibraryError.articleNotFound(id)
        }
        return article
    }

    /// The articles with these IDs, in this order; throws for the first missing one.
    static func articles(_ ids: [UUID], in context: ManagedObjectContext) throws -> [StoredArticle] {
        var found: [UUID: StoredArticle] = [:]
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(ids.count, start + 500)])
            for article in try context.fetch(FetchRequest<StoredArticle>(predicate: .in(\.id, chunk))) {
                found[article.id] = article
            }
        }
        return try ids.map { id in
            guard let article = found[id] else { throw LibraryError.articleNotFound(id) }
            return article
        }
    }

    /// The folder with this name, if there is one.
    static func folder(named name: String, in context: ManagedObjectContext) throws -> Folder? {
        try context.fetch(FetchRequest<Folder>(predicate: \.name == name, fetchLimit: 1)).first
    }

    /// The folder with this name, created when missing.
    static func folder(named name: String, creatingIn context: ManagedObjectContext, at now: Date) throws -> Folder {
        if let folder = try folder(named: name, in: context) { return folder }
        try check(name, kind: "folder")
        let folder = Folder(context: context)
        folder.name = name
        folder.created = now
        return folder
    }

    /// The tag with this name, if there is one.
    static func tag(named name: String, in context: ManagedObjectContext) throws -> Tag? {
        try context.fetch(FetchRequest<Tag>(predicate: \.name == name, fetchLimit: 1)).first
    }

    /// The tag with this name, created when missing.
    static func tag(named name: String, creatingIn context: ManagedObjectContext) throws -> Tag {
        if let tag = try tag(named: name, in: context) { return tag }
        try check(name, kind: "tag")
        let tag = Tag(context: context)
        tag.name = name
        return tag
    }

    /// The folders and tags of one context found or created by name, each name looked up once:
    /// an import or the demo library names the same few for every article of a save.
    struct Places {
        let context: ManagedObjectContext
        private var folders: [String: Folder] = [:]
        private var tags: [String: Tag] = [:]

        init(in context: ManagedObjectContext) { self.context = context }

        /// ``LibraryNames/folder(named:creatingIn:at:)``, once per name.
        mutating func folder(named name: String, at now: Date) throws -> Folder {
            if let folder = folders[name] { return folder }
            let folder = try LibraryNames.folder(named: name, creatingIn: context, at: now)
            folders[name] = folder
            return folder
        }

        /// ``LibraryNames/tag(named:creatingIn:)``, once per name.
        mutating func tag(named name: String) throws -> Tag {
            if let tag = tags[name] { return tag }
            let tag = try LibraryNames.tag(named: name, creatingIn: context)
            tags[name] = tag
            return tag
        }
    }

    /// A folder or tag name: one line of visible text, at most the protocol's name length.
    static func check(_ name: String, kind: String) throws {
        if name.allSatisfy(\.isWhitespace) {
            throw LibraryError.invalidName(kind: kind, name: name, reason: .empty)
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw LibraryError.invalidName(kind: kind, name: name, reason: .controlCharacters)
        }
        if name.utf8.count > ArticlePayload.Limits.maximumNameBytes {
            throw LibraryError.invalidName(
                kind: kind, name: String(name.prefix(40)) + "…", reason: .longerThan(bytes: ArticlePayload.Limits.maximumNameBytes))
        }
    }
}

extension LibraryError {
    /// Why a folder or tag name cannot be used.
    public enum NameProblem: Sendable, Hashable {
        /// Nothing but white space.
        case empty
        /// A control character (a line break, a tab).
        case controlCharacters
        /// More UTF-8 bytes than the sync protocol carries in a name.
        case longerThan(bytes: Int)

        /// The words that follow the name in a sentence ("is empty"): English for `--json` and
        /// the log, the writer's language in the app.
        public var text: TranslatableText {
            switch self {
            case .empty: TranslatableText("is empty")
            case .controlCharacters: TranslatableText("contains control characters")
            case .longerThan(let bytes): TranslatableText.counted("is longer than %d byte", "is longer than %d bytes", bytes, bytes)
            }
        }
    }
}
