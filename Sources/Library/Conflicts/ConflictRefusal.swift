import Platform

/// Why a decision does not fit a conflict (``LibraryError/resolutionNotApplicable(conflict:reason:)``),
/// naming the choices that do.
public enum ConflictRefusal: Sendable, Hashable {
    /// This device deleted the article and the server changed it.
    case deletedHere
    /// The server deleted the article.
    case deletedOnServer
    /// Both sides deleted the article.
    case deletedOnBothSides
    /// The conflict holds no server revision to write over.
    case noServerRevision
    /// Restore Mine or Accept Delete for a conflict without a deletion on the server.
    case notDeletedOnServer
    /// Restore Mine for an article this device no longer has.
    case notOnThisDevice

    /// The reason, worded to follow "conflict ID: ": English for `--json` and logs, the writer's
    /// language for people.
    public var text: TranslatableText {
        switch self {
        case .deletedHere:
            TranslatableText("this device deleted the article and the server changed it; delete it anyway (keep mine) or keep the server's version (keep theirs)")
        case .deletedOnServer:
            TranslatableText("the server deleted the article; restore this device's version (keep mine) or accept the deletion (keep theirs)")
        case .deletedOnBothSides: TranslatableText("both sides deleted the article; accept the deletion (keep theirs)")
        case .noServerRevision: TranslatableText("the conflict holds no server revision to write over")
        case .notDeletedOnServer:
            TranslatableText("the server did not delete the article; keep mine, keep theirs, keep both, or save a merged version")
        case .notOnThisDevice: TranslatableText("the article is not on this device")
        }
    }
}
