import ObjectGraph

/// Which changes can move a sidebar count, so that a window recounts only after those.
///
/// Every autosave while typing inserts an outbox operation and may record a version, and changes
/// an article's title, body and derived fields: none of that moves a count, and recounting after
/// each one would read the whole library (hundreds of milliseconds at 100,000 articles) every few
/// seconds of typing.
extension LibraryCounts {
    /// The article properties the counts depend on (``read(in:)``'s predicates and groups).
    static let countedArticleKeys = ["favorite", "status", "trashed", "folder", "tags"]

    /// Whether a change of a context's objects can change the counts: an article, folder or tag
    /// inserted or deleted, a folder or tag changed (a rename), or an article's favorite, status,
    /// trash, folder or tags changed. A context's own edits, a child's save and merged saves of
    /// other contexts all arrive this way.
    public static func mayChange(with change: ObjectsDidChange) -> Bool {
        change.invalidatedAll
            || change.inserted.contains(where: isCountedEntity) || change.deleted.contains(where: isCountedEntity)
            || (change.updated + change.refreshed).contains(where: changesCount)
    }

    /// Whether a save can change the counts (see ``mayChange(with:)-(ObjectsDidChange)``).
    public static func mayChange(with save: ChangeSet) -> Bool {
        save.inserted.contains(where: isCountedEntity) || save.deleted.contains(where: isCountedEntity)
            || save.updatedObjects.contains(where: changesCount)
    }

    private static func isCountedEntity(_ objectID: ManagedObjectID) -> Bool {
        ["Article", "Folder", "Tag"].contains(objectID.entityName)
    }

    private static func changesCount(_ object: UpdatedObject) -> Bool {
        switch object.objectID.entityName {
        case "Folder", "Tag": !object.changedKeys.isEmpty
        case "Article": countedArticleKeys.contains(where: object.changedKeys.contains)
        default: false
        }
    }
}
