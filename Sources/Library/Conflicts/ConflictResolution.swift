import Foundation

/// What the writer decided about a conflict. Each is carried out against the article as it
/// stands when the decision is saved (``ConflictSides``), whatever the dialog or `quire conflicts`
/// showed before; none drops text this device saved after the conflict was found.
public enum ConflictResolution: Sendable, Hashable {
    /// Keep this device's version (its current content, later edits included) and push it over
    /// the server's; after a deletion on the server the article is created there again. For an
    /// article deleted here ("Delete Anyway"), push the deletion over the server's edit and leave
    /// the article in the trash.
    case keepMine
    /// Take the server's version: the article comes back from the trash with the server's
    /// content if it was deleted here. When this device's text would be dropped and was not what
    /// it was when the conflict was found (``ConflictSides/keepTheirsKeepsCopy``), it is kept first
    /// as "Title (conflicted copy)", in the library or, for an article in the trash, in the trash.
    /// For a deletion on the server, move the article to the trash (the same as ``acceptDelete``).
    case keepTheirs
    /// Take the server's version, and keep this device's version as a new article titled
    /// "Title (conflicted copy)". Only for edits on both sides: a deletion leaves nothing to copy.
    case keepBoth
    /// Save content the writer merged, and push it over the server's version. This device's text,
    /// when it changed since the conflict was found and the merge is not it, is kept first as
    /// "Title (conflicted copy)" (the merge may have been made from an older view of it).
    case merged(ArticleContent)
    /// Edited here, deleted on the server: bring the article back on the server with this
    /// device's version (the same as ``keepMine``).
    case restoreMine
    /// Edited here, deleted on the server: accept the deletion (the article moves to the trash;
    /// the same as ``keepTheirs``).
    case acceptDelete

    /// The title of the copy ``keepBoth`` makes of this device's version: "Title (conflicted copy)",
    /// or "Untitled (conflicted copy)" for a blank title. The dialog shows the same name.
    public static func conflictedCopyTitle(of title: String) -> String {
        DisplayTitle.of(title.trimmingCharacters(in: .whitespacesAndNewlines)) + " (conflicted copy)"
    }

    /// The resolution's name, as the conflict record keeps it.
    public var kind: Kind {
        switch self {
        case .keepMine: .keepMine
        case .keepTheirs: .keepTheirs
        case .keepBoth: .keepBoth
        case .merged: .merged
        case .restoreMine: .restoreMine
        case .acceptDelete: .acceptDelete
        }
    }

    /// The names of resolutions, stored with a resolved conflict.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// ``ConflictResolution/keepMine``.
        case keepMine
        /// ``ConflictResolution/keepTheirs``.
        case keepTheirs
        /// ``ConflictResolution/keepBoth``.
        case keepBoth
        /// ``ConflictResolution/merged(_:)``.
        case merged
        /// ``ConflictResolution/restoreMine``.
        case restoreMine
        /// ``ConflictResolution/acceptDelete``.
        case acceptDelete
        /// Both sides merged cleanly or came to agree (equal, or both deleted) without the writer:
        /// found by the sync worker, or by a local change to an article with an open conflict. The
        /// record keeps the sides so that the writer can see what was merged ("merged automatically").
        case mergedAutomatically
    }
}
