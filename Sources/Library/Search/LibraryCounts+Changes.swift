import ObjectGraph

/// Which changes can move a sidebar count (``CountChange``), so that a window updates its counts
/// only after those.
extension LibraryCounts {
    /// Whether a change of a context's objects can change the counts: an article, folder or tag
    /// inserted or deleted, a folder or tag changed (a rename), or an article's favorite, status,
    /// trash, folder or tags changed.
    public static func mayChange(with change: ObjectsDidChange) -> Bool {
        !CountChange(change).isEmpty
    }

    /// Whether a save can change the counts (see ``mayChange(with:)-(ObjectsDidChange)``).
    public static func mayChange(with save: ChangeSet) -> Bool {
        !CountChange(save).isEmpty
    }
}
