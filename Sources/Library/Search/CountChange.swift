import ObjectGraph

/// What a change did to the things the sidebar counts: the articles whose favorite, status,
/// trash, folder or tags may differ (inserted, deleted or changed), whether a folder or tag was
/// added, removed or renamed, and whether everything must be counted again (a context reset).
///
/// Built from a context's change notification or a save's change set, both of which name every
/// object by ID, whoever made the change: this context, another context whose save it merged, a
/// batch operation. Every autosave while typing inserts an outbox operation and may
/// record a version, and changes an article's title, body and derived fields: none of that is a
/// count change, so typing costs the sidebar nothing. ``RunningCounts`` applies it.
public struct CountChange: Sendable, Hashable {
    /// Articles whose counted properties may have changed, or that came or went.
    public internal(set) var articles: Set<ManagedObjectID> = []
    /// A folder or tag came, went or was renamed.
    public internal(set) var places = false
    /// Anything may have changed (``ObjectsDidChange/invalidatedAll``): count everything again.
    public internal(set) var everything = false

    /// No change.
    public init() {}

    /// What a change of a context's objects did: a context's own edits, a child's save and merged
    /// saves of other contexts (and processes) all arrive this way.
    public init(_ change: ObjectsDidChange) {
        everything = change.invalidatedAll
        note(inserted: change.inserted, deleted: change.deleted, updated: change.updated + change.refreshed)
    }

    /// What a save did.
    public init(_ save: ChangeSet) {
        note(inserted: save.inserted, deleted: save.deleted, updated: save.updatedObjects)
    }

    /// The properties of an article the counts depend on (``LibraryCounts/read(in:)``'s
    /// predicates and groups).
    static let countedArticleKeys = ["favorite", "status", "trashed", "folder", "tags"]

    private mutating func note(inserted: [ManagedObjectID], deleted: [ManagedObjectID], updated: [UpdatedObject]) {
        for objectID in inserted + deleted {
            switch objectID.entityName {
            case "Article": articles.insert(objectID)
            case "Folder", "Tag": places = true
            default: break
            }
        }
        for object in updated {
            switch object.objectID.entityName {
            case "Article" where Self.countedArticleKeys.contains(where: object.changedKeys.contains):
                articles.insert(object.objectID)
            case "Folder", "Tag":
                if !object.changedKeys.isEmpty { places = true }
            default: break
            }
        }
    }

    /// Whether the change moves no count.
    public var isEmpty: Bool { articles.isEmpty && !places && !everything }

    /// Adds what `other` changed, for changes that wait to be applied together.
    public mutating func formUnion(_ other: CountChange) {
        articles.formUnion(other.articles)
        places = places || other.places
        everything = everything || other.everything
    }

    /// A change that has the counts read again in full.
    public static let everything: CountChange = {
        var change = CountChange()
        change.everything = true
        return change
    }()
}
