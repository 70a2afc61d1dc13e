import Foundation
import Platform
import SyncProtocol

/// Why a library operation could not be carried out. Each case names what it is about.
public enum LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no library at this path (and the caller did not ask to create one).
    case noLibrary(path: String)
    /// No article has this ID.
    case articleNotFound(UUID)
    /// No article's ID is or begins with this text.
    case noArticleMatching(String)
    /// More than one article's ID begins with this text: these.
    case ambiguousArticleID(String, matches: [UUID])
    /// No folder has this name.
    case folderNotFound(String)
    /// A folder with this name exists already.
    case folderExists(String)
    /// A folder or tag name that cannot be used.
    case invalidName(kind: String, name: String, reason: NameProblem)
    /// Article content the sync protocol cannot carry (a NUL character, a title too long).
    case invalidContent(article: UUID, violation: FieldViolation)
    /// No conflict has this ID.
    case conflictNotFound(UUID)
    /// The conflict was resolved already.
    case conflictAlreadyResolved(UUID)
    /// The resolution does not fit the conflict (Restore Mine for a conflict without a deletion).
    case resolutionNotApplicable(conflict: UUID, reason: String)
    /// The conflict is about something else now than when the writer decided (``ConflictKind``):
    /// a restore, a move to the trash or a deletion on the server came in between, so the choice
    /// would do something other than what was shown (Delete Anyway would send this device's text).
    case conflictChanged(conflict: UUID, decidedAgainst: ConflictKind, now: ConflictKind)
    /// No recovered draft exists for this article.
    case draftNotFound(article: UUID)
    /// The article is at another revision (``ArticleSnapshot/localRevision``) than the one the
    /// caller read: it changed since.
    case revisionChanged(article: UUID, expected: Int64, current: Int64)
    /// A file larger than the library takes as an attachment (``Library/attachmentSizeLimit``).
    case attachmentTooLarge(fileName: String, size: Int, limit: Int)

    public var description: String {
        switch self {
        case .noLibrary(let path): return "there is no library at \(path)"
        case .articleNotFound(let id): return "no article has the ID \(id.uuidString.lowercased())"
        case .noArticleMatching(let text): return "no article's ID begins with '\(text)'"
        case .ambiguousArticleID(let text, let matches):
            return "\(matches.count) articles have IDs beginning with '\(text)'; give more of the ID: " + IDPrefix.list(matches)
        case .folderNotFound(let name): return "there is no folder named '\(name)'"
        case .folderExists(let name): return "a folder named '\(name)' exists already"
        case .invalidName(let kind, let name, let reason): return "the \(kind) name '\(name)' \(reason.text.english)"
        case .invalidContent(let article, let violation):
            return "article \(article.uuidString.lowercased()): \(violation)"
        case .conflictNotFound(let id): return "no conflict has the ID \(id.uuidString.lowercased())"
        case .conflictAlreadyResolved(let id): return "conflict \(id.uuidString.lowercased()) is resolved already"
        case .resolutionNotApplicable(let id, let reason): return "conflict \(id.uuidString.lowercased()): \(reason)"
        case .conflictChanged(let id, let decidedAgainst, let now):
            return "conflict \(id.uuidString.lowercased()) was \(decidedAgainst.phrase) and is \(now.phrase) now: "
                + "nothing was changed; look at it again ('quire conflicts') and decide"
        case .draftNotFound(let article): return "no recovered draft for article \(article.uuidString.lowercased())"
        case .revisionChanged(let article, let expected, let current):
            return "article \(article.uuidString.lowercased()) is at revision \(current) now, not \(expected): it changed since it was read"
        case .attachmentTooLarge(let fileName, let size, let limit):
            return "“\(fileName)” is \(fileSizeText(size)), larger than the \(fileSizeText(limit)) a library takes per file"
        }
    }
}
