import Foundation

/// What the writer decided for one conflicted article, in the conflict dialog or with
/// `quire resolve`. A pure value: applying it (the article, its outbox operation with the server's
/// revision as the new base, and the closed conflict, in one save) is the sync code's job.
///
/// An edit conflict (both sides changed the article) is settled by ``keepMine``, ``keepTheirs``,
/// ``keepBoth`` or ``merged(_:)``; an edit-versus-delete conflict (the server deleted an article
/// this device edited) by ``restoreMine`` or ``acceptDelete``. ``decideLater`` leaves either open.
public enum ConflictResolution: Sendable, Hashable {
    /// This device's version replaces the server's.
    case keepMine
    /// The server's version replaces this device's; this device's edits are discarded.
    case keepTheirs
    /// The server's version stays the article, and this device's version is saved as a new article
    /// titled ``conflictedCopyTitle(of:)``, so nothing either side wrote is lost.
    case keepBoth
    /// The writer's merge of the two versions replaces both.
    case merged(ArticleContent)
    /// Nothing is decided now; the conflict stays open.
    case decideLater
    /// Edit versus delete: this device's version is restored on the server.
    case restoreMine
    /// Edit versus delete: the deletion stands, and the article moves to the trash here too.
    case acceptDelete

    /// Whether the resolution closes the conflict (every case but ``decideLater``).
    public var closesConflict: Bool { self != .decideLater }

    /// The title of this device's copy under ``keepBoth``: "Title (conflicted copy)", or
    /// "Untitled (conflicted copy)" for an article without a visible title (as exports show it).
    public static func conflictedCopyTitle(of title: String) -> String {
        DisplayTitle.of(title.trimmingCharacters(in: .whitespacesAndNewlines)) + " (conflicted copy)"
    }
}
