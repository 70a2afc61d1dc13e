import Foundation

/// What the writer decided about a conflict.
public enum ConflictResolution: Sendable, Hashable {
    /// Keep this device's version (its current content, later edits included) and push it over
    /// the server's; for a conflict whose local side is a deletion ("Delete Anyway"), push the
    /// deletion over the server's edit and leave the article in the trash.
    case keepMine
    /// Take the server's version; for a conflict whose local side is a deletion ("Keep Their
    /// Version"), the article comes back from the trash with the server's content. For a conflict
    /// whose server side is a deletion, move the article to the trash (the same as ``acceptDelete``).
    case keepTheirs
    /// Take the server's version, and keep this device's version as a new article titled
    /// "Title (conflicted copy)". Only for edits on both sides: a deletion leaves nothing to copy.
    case keepBoth
    /// Save content the writer merged, and push it over the server's version.
    case merged(ArticleContent)
    /// Edit versus delete on the server: bring the article back with this device's version.
    case restoreMine
    /// Edit versus delete on the server: accept the deletion (the article moves to the trash).
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
        /// The sync worker merged both sides cleanly; the record keeps them so that the writer can
        /// see what was merged ("merged automatically").
        case mergedAutomatically
    }
}
