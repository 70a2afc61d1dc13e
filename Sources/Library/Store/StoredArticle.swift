import Foundation
import ObjectGraph
import SyncProtocol

/// An article as the library store keeps it: the `Article` entity.
///
/// (Named so because `Article` is SyncProtocol's wire type, which the sync client uses beside it.)
///
/// Change articles through ``Library``'s operations, or, in a context of your own (the editor's
/// draft context), set the properties and call ``LocalChanges/record(in:at:alsoChanged:)`` before
/// saving: it refreshes the derived fields and writes the outbox operation in the same save. The
/// sync worker's changes go through ``Reconciler``. Where the article stands (trash, revisions,
/// sync state) only the library sets.
public final class StoredArticle: ManagedObject {
    /// The domain identifier, the same on every device and on the server.
    @Attribute("id") public var id: UUID
    /// One line of plain text.
    @Attribute("title") public var title: String
    /// One line of plain text under the title; nil when the article has none. (Since schema V2;
    /// not synced yet: the sync protocol's payload has no field for it.)
    @Attribute("subtitle") public var subtitle: String?
    /// The title folded for case- and accent-insensitive sorting; derived.
    @Attribute("sortTitle") public var sortTitle: String
    /// The Markdown text, exactly as typed.
    @Attribute("body") public var body: String
    /// The start of the body as plain text, for the list; derived.
    @Attribute("excerpt") public var excerpt: String
    /// Words in the body; derived.
    @Attribute("wordCount") public var wordCount: Int
    /// Estimated minutes to read the body (``ReadingTime``); derived. (Since schema V2.)
    @Attribute("readingMinutes") public var readingMinutes: Int
    /// Whether the writer starred it.
    @Attribute("favorite") public var isFavorite: Bool
    /// When it was created.
    @Attribute("created") public var created: Date
    /// When its title, body or status last changed.
    @Attribute("updated") public var updated: Date
    /// Where it stands in the writer's workflow.
    @Attribute("status") public var status: ArticleStatus
    /// Its language, a dictionary tag (``ArticleLanguage``). (Since schema V4.)
    @Attribute("language") public var language: String
    /// When it went to the trash; nil outside the trash.
    @Attribute("trashed") public internal(set) var trashed: Date?
    /// The server revision its last synced state had; nil until the server acknowledged it.
    @Attribute("serverRevision") public internal(set) var serverRevision: Int64?
    /// The article's revision in this library: bumped by every change the writer saves
    /// (``LocalChanges``), by a conflict's resolution, and by other content the sync worker brings in.
    @Attribute("localRevision") public internal(set) var localRevision: Int64
    /// How it stands against the server (the list's badge).
    @Attribute("syncState") public internal(set) var syncState: ArticleSyncState
    /// The folder it is filed in.
    @ToOne("folder") public var folder: Folder?
    /// Its tags.
    @ToMany("tags") public var tags: RelatedObjects<Tag>
    /// The editor's unsaved text for it, if the app stopped before saving (at most one).
    @ToMany("drafts") public var drafts: RelatedObjects<DraftRecovery>
    /// The words the spell checker ignores in it (local, not synced). (Since schema V4.)
    @ToMany("ignoredWords") public var ignoredWords: RelatedObjects<IgnoredWord>
    /// The files put in it, such as pasted images (``StoredAttachment``). (Since schema V5.)
    @ToMany("attachments") public var attachments: RelatedObjects<StoredAttachment>

    /// Tag names sorted by folded name, then by name: the store keeps tags as a set, so this is
    /// their one order. (Each name is folded once: every save of an article reads them.)
    public var tagNames: [String] {
        tags.map { (key: ArticleText.sortKey($0.name), name: $0.name) }.sorted { $0 < $1 }.map(\.name)
    }

    /// What the writer edits, as a value.
    public var content: ArticleContent {
        ArticleContent(
            title: title, body: body, folder: folder?.name, tags: tagNames, status: status, isFavorite: isFavorite,
            language: language)
    }

    /// Everything about the article as a value that may leave the context.
    public var snapshot: ArticleSnapshot {
        ArticleSnapshot(
            id: id, title: title, body: body, folder: folder?.name, tags: tagNames, status: status,
            isFavorite: isFavorite, created: created, updated: updated, trashed: trashed,
            serverRevision: serverRevision, localRevision: localRevision, syncState: syncState, language: language)
    }

    /// A new article's language, until its content says another: the writer's locale's.
    public override func awakeFromInsert() {
        language = ArticleLanguage.preferred
    }

    /// The content the server stores for it: what an outbox `put` sends.
    public var payload: ArticlePayload {
        content.payload
    }
}

extension ArticleStatus: AttributeValue {}
extension ArticleSyncState: AttributeValue {}
