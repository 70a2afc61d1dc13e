import Foundation
import Library

/// What an export job writes.
public enum ExportFormat: Sendable, Hashable {
    /// One `.md` file per article with YAML front matter (see the format; read back by
    /// ``MarkdownFileReader``). The destination is a folder.
    case markdown
    /// HTML rendered with cmark-gfm, one standalone page per article or one combined page.
    case html(ExportLayout)
    /// PDF typeset with Pango and Cairo, one file per article or one combined file.
    case pdf(ExportLayout, paper: PaperSize = .fromLocale())
    /// The lossless JSON archive (``LibraryArchive``). The destination is a file.
    case jsonArchive(ArchiveExportOptions)

    /// The file name extension this format writes, without the dot.
    public var fileExtension: String {
        switch self {
        case .markdown: "md"
        case .html: "html"
        case .pdf: "pdf"
        case .jsonArchive: "json"
        }
    }

    /// Whether the destination names a folder (one file per article) rather than a file.
    public var writesFilePerArticle: Bool {
        switch self {
        case .markdown: true
        case .html(let layout), .pdf(let layout, _): layout == .filePerArticle
        case .jsonArchive: false
        }
    }
}

/// How HTML and PDF exports lay articles out in files.
public enum ExportLayout: Sendable, Hashable {
    /// One file per article, in the destination folder.
    case filePerArticle
    /// One file holding a table of contents and then every article; `title` heads the document.
    case combined(title: String)
}

/// What goes into a JSON archive besides the articles.
public struct ArchiveExportOptions: Sendable, Hashable {
    /// The version of the library schema the articles come from (the store's current version).
    public var schemaVersion: Int
    /// Whether each article's sync metadata (server revision, local revision, sync state) is kept.
    public var includesSyncMetadata: Bool
    /// Every folder of the library, empty ones included; folders the articles name are added.
    public var folders: [String]
    /// Every tag of the library, unused ones included; tags the articles carry are added.
    public var tags: [String]
    /// The library's personal dictionary, by language.
    public var personalWords: [String: [String]]
    /// The moment recorded as the export time.
    public var exportedAt: Date

    /// Options for an archive of articles from a library at `schemaVersion`.
    public init(
        schemaVersion: Int, includesSyncMetadata: Bool = true, folders: [String] = [], tags: [String] = [],
        personalWords: [String: [String]] = [:], exportedAt: Date = Date()
    ) {
        self.schemaVersion = schemaVersion
        self.includesSyncMetadata = includesSyncMetadata
        self.folders = folders
        self.tags = tags
        self.personalWords = personalWords
        self.exportedAt = exportedAt
    }
}
