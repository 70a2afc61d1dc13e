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
    case resolutionNotApplicable(conflict: UUID, reason: ConflictRefusal)
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

    /// What went wrong, worded to follow "quire VERB: ": ``TranslatableText/english`` for
    /// `--json`, logs and ``description``, ``TranslatableText/translated`` for people.
    public var text: TranslatableText {
        switch self {
        case .noLibrary(let path): TranslatableText("there is no library at %s", path)
        case .articleNotFound(let id): TranslatableText("no article has the ID %s", id.uuidString.lowercased())
        case .noArticleMatching(let text): TranslatableText("no article's ID begins with '%s'", text)
        case .ambiguousArticleID(let text, let matches):
            TranslatableText.counted(
                "%1$d article has an ID beginning with '%2$s'; give more of the ID: %3$s",
                "%1$d articles have IDs beginning with '%2$s'; give more of the ID: %3$s", matches.count, matches.count, text,
                IDPrefix.list(matches))
        case .folderNotFound(let name): TranslatableText("there is no folder named '%s'", name)
        case .folderExists(let name): TranslatableText("a folder named '%s' exists already", name)
        // Library's kinds are "folder" and "tag": a whole sentence for each, for translators.
        case .invalidName(let kind, let name, let reason):
            kind == "tag" ? TranslatableText("the tag name '%1$s' %2$s", name, reason.text)
                : TranslatableText("the folder name '%1$s' %2$s", name, reason.text)
        // SyncProtocol's reason stays English: it names a JSON field and knows no catalogue.
        case .invalidContent(let article, let violation):
            TranslatableText("article %1$s: %2$s", article.uuidString.lowercased(), violation.description)
        case .conflictNotFound(let id): TranslatableText("no conflict has the ID %s", id.uuidString.lowercased())
        case .conflictAlreadyResolved(let id): TranslatableText("conflict %s is resolved already", id.uuidString.lowercased())
        case .resolutionNotApplicable(let id, let reason):
            TranslatableText("conflict %1$s: %2$s", id.uuidString.lowercased(), reason.text)
        case .conflictChanged(let id, let decidedAgainst, let now):
            TranslatableText(
                "conflict %1$s was %2$s and is %3$s now: nothing was changed; look at it again ('quire conflicts') and decide",
                id.uuidString.lowercased(), decidedAgainst.phrase, now.phrase)
        case .draftNotFound(let article): TranslatableText("no recovered draft for article %s", article.uuidString.lowercased())
        case .revisionChanged(let article, let expected, let current):
            TranslatableText(
                "article %1$s is at revision %2$d now, not %3$d: it changed since it was read", article.uuidString.lowercased(),
                current, expected)
        case .attachmentTooLarge(let fileName, let size, let limit):
            TranslatableText(
                "“%1$s” is %2$s, larger than the %3$s a library takes per file", fileName, fileSizeText(size), fileSizeText(limit))
        }
    }

    /// ``text`` in English.
    public var description: String { text.english }
}
