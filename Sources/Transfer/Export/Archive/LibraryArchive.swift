import SyncProtocol
import Foundation
import Library

/// Quire's lossless JSON archive: a versioned envelope around articles, folders and tags.
///
/// ```json
/// {"application":"Quire","exportedAt":"2024-05-01T09:30:00Z","format":"quire-library-archive",
///  "formatVersion":1,"schemaVersion":3,
///  "articles":[{"id":"…","title":"…","body":"…","folder":null,"tags":[],"status":"draft",
///               "favorite":false,"created":"…","updated":"…","trashed":null,
///               "sync":{"serverRevision":12,"localRevision":40,"state":"synced"},
///               "attachments":[{"fileName":"diagram.png","mediaType":"image/png","sha256":"9f86…","data":"iVBORw0…"}]}],
///  "folders":["Essays"],"tags":["yaml"],"personalWords":{"en_US":["Quire"]}}
/// ```
///
/// `formatVersion` is the layout of this file; a reader refuses versions newer than it knows.
/// `schemaVersion` is the version of the library schema the articles came from, so that an importer
/// can migrate older data. Dates are ``Timestamp`` strings, exact to the nanosecond.
public struct LibraryArchive: Sendable, Hashable, Codable {
    /// The value of `format` that marks a Quire archive.
    public static let formatName = "quire-library-archive"
    /// The newest layout this build writes and reads.
    public static let currentFormatVersion = 1

    /// Always ``formatName``.
    public var format: String
    /// The layout of this file.
    public var formatVersion: Int
    /// The library schema version the articles came from.
    public var schemaVersion: Int
    /// When the archive was written.
    public var exportedAt: Date
    /// The program that wrote the archive.
    public var application: String
    /// The articles, in export order.
    public var articles: [ArchivedArticle]
    /// Every folder name, empty folders included.
    public var folders: [String]
    /// Every tag name, unused tags included.
    public var tags: [String]
    /// The personal dictionary: the words the spell checker accepts, by language, each sorted;
    /// absent in archives from before it.
    public var personalWords: [String: [String]]?

    /// An archive in the current format.
    public init(
        schemaVersion: Int, exportedAt: Date, articles: [ArchivedArticle], folders: [String], tags: [String],
        personalWords: [String: [String]]? = nil
    ) {
        format = Self.formatName
        formatVersion = Self.currentFormatVersion
        self.schemaVersion = schemaVersion
        self.exportedAt = exportedAt
        application = "Quire"
        self.articles = articles
        self.folders = folders
        self.tags = tags
        self.personalWords = personalWords
    }

    /// The encoder every archive is written with: ``Timestamp`` dates, sorted keys, unescaped slashes.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(from: date))
        }
        return encoder
    }

    /// The decoder every archive is read with.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        return decoder
    }
}

/// One article in a ``LibraryArchive``: every field of ``ArticleSnapshot``, the sync metadata
/// optional.
public struct ArchivedArticle: Sendable, Hashable, Codable {
    /// The article's sync metadata, kept when the archive was asked to.
    public struct Sync: Sendable, Hashable, Codable {
        /// The server revision the article was based on.
        public var serverRevision: Int64?
        /// The local save counter.
        public var localRevision: Int64
        /// How the article stood against the server.
        public var state: ArticleSyncState
    }

    /// The article's domain identifier.
    public var id: UUID
    /// The title.
    public var title: String
    /// The Markdown body, exactly.
    public var body: String
    /// The folder name; `null` at the top of the library.
    public var folder: String?
    /// The tag names, in order.
    public var tags: [String]
    /// The workflow status.
    public var status: ArticleStatus
    /// Whether the writer starred it.
    public var favorite: Bool
    /// When it was created.
    public var created: Date
    /// When its content last changed.
    public var updated: Date
    /// When it went to the trash; `null` when it is not there.
    public var trashed: Date?
    /// The article's language; absent in archives from before languages (schema V4).
    public var language: String?
    /// The sync metadata; `nil` in an archive written without it.
    public var sync: Sync?
    /// The article's earlier versions, oldest first; absent unless the archive was written with
    /// its history (`quire export --with-history`).
    public var history: [ArchivedVersion]?
    /// The article's attachments with their bytes; absent when it has none, and in archives from
    /// before attachments (schema V5).
    public var attachments: [ArchivedAttachment]?

    /// The archived form of `article`, with or without its sync metadata.
    public init(_ article: ArticleSnapshot, includingSync: Bool) {
        id = article.id
        title = article.title
        body = article.body
        folder = article.folder
        tags = article.tags
        status = article.status
        favorite = article.isFavorite
        created = article.created
        updated = article.updated
        trashed = article.trashed
        language = article.language
        sync = includingSync
            ? Sync(serverRevision: article.serverRevision, localRevision: article.localRevision, state: article.syncState)
            : nil
        history = article.history?.map(ArchivedVersion.init)
    }

    /// The article as a snapshot; without sync metadata it is a local article never synced.
    public var snapshot: ArticleSnapshot {
        ArticleSnapshot(
            id: id, title: title, body: body, folder: folder, tags: tags, status: status, isFavorite: favorite,
            created: created, updated: updated, trashed: trashed, serverRevision: sync?.serverRevision,
            localRevision: sync?.localRevision ?? 0, syncState: sync?.state ?? .localOnly, language: language,
            history: history?.map { $0.snapshot(of: id) })
    }

    // Written by hand so that absent optionals are written as null: every archive has every key.
    private enum CodingKeys: String, CodingKey {
        case id, title, body, folder, tags, status, favorite, created, updated, trashed, language, sync, history, attachments
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // IDs are written as RFC 4122 text, lower case, as every verb prints them.
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(folder, forKey: .folder)
        try container.encode(tags, forKey: .tags)
        try container.encode(status, forKey: .status)
        try container.encode(favorite, forKey: .favorite)
        try container.encode(created, forKey: .created)
        try container.encode(updated, forKey: .updated)
        try container.encode(trashed, forKey: .trashed)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(sync, forKey: .sync)
        try container.encodeIfPresent(history, forKey: .history)
        try container.encodeIfPresent(attachments, forKey: .attachments)
    }
}

/// One attachment of an article in a ``LibraryArchive``: its bytes in base64, inside the one
/// archive file, with the SHA-256 the import checks them against.
public struct ArchivedAttachment: Sendable, Hashable, Codable {
    /// The file's name.
    public var fileName: String
    /// Its media type.
    public var mediaType: String
    /// The SHA-256 of its bytes, which the article's references name.
    public var sha256: String
    /// Its bytes (base64 in the JSON).
    public var data: Data

    /// The archived form of `file`; nil when its bytes cannot be had.
    public init?(_ file: AttachmentFile) {
        guard let data = file.data else { return nil }
        fileName = file.fileName
        mediaType = file.mediaType
        sha256 = file.sha256
        self.data = data
    }

    /// The file, when its bytes still have their SHA-256.
    public var file: AttachmentFile? {
        let file = AttachmentFile(fileName: fileName, data: data)
        return file.sha256 == sha256 ? file : nil
    }
}

/// One earlier version of an article in a ``LibraryArchive`` written with its history.
public struct ArchivedVersion: Sendable, Hashable, Codable {
    /// The version's ID.
    public var id: UUID
    /// When it was recorded.
    public var recorded: Date
    /// Why it was recorded.
    public var source: ArticleVersionSource
    /// The title then.
    public var title: String
    /// The body then.
    public var body: String

    /// The archived form of `version`.
    public init(_ version: ArticleVersionSnapshot) {
        id = version.id
        recorded = version.recorded
        source = version.source
        title = version.title
        body = version.body
    }

    /// The version as a snapshot of the article with this ID.
    public func snapshot(of articleID: UUID) -> ArticleVersionSnapshot {
        ArticleVersionSnapshot(id: id, articleID: articleID, recorded: recorded, source: source, title: title, body: body)
    }

    private enum CodingKeys: String, CodingKey {
        case id, recorded, source, title, body
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(recorded, forKey: .recorded)
        try container.encode(source, forKey: .source)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
    }
}
