import Foundation
import Library

/// Writes a ``LibraryArchive`` article by article into one atomic file, so that a 10,000-article
/// archive never sits in memory whole. The result decodes as the same `LibraryArchive` that
/// `JSONEncoder` would have written, one article per line.
final class ArchiveExport: ExportWriter {
    let passes = 1
    private let file: AtomicFile
    private let options: ArchiveExportOptions
    private let encoder = LibraryArchive.makeEncoder()
    private var folders: OrderedNames
    private var tags: OrderedNames
    private var isFirstArticle = true

    init(destination: URL, replacing: Bool, options: ArchiveExportOptions) throws {
        self.options = options
        folders = OrderedNames(options.folders)
        tags = OrderedNames(options.tags)
        file = try AtomicFile(destination: destination, replacing: replacing)
        let header = LibraryArchive(
            schemaVersion: options.schemaVersion, exportedAt: options.exportedAt, articles: [], folders: [], tags: [])
        try file.output.write(try envelopeOpening(header))
    }

    func usesAttachments(pass: Int) -> Bool { true }

    func add(_ article: ArticleSnapshot, attachments: [AttachmentFile], pass: Int) throws {
        if let folder = article.folder { folders.insert(folder) }
        for tag in article.tags { tags.insert(tag) }
        try file.output.write(isFirstArticle ? "\n" : ",\n")
        isFirstArticle = false
        var archived = ArchivedArticle(article, includingSync: options.includesSyncMetadata)
        let readable = attachments.compactMap(ArchivedAttachment.init)
        archived.attachments = readable.isEmpty ? nil : readable
        try file.output.write(try encoder.encode(archived))
    }

    func commit() throws -> [URL] {
        try file.output.write("\n],\"folders\":")
        try file.output.write(try encoder.encode(folders.names))
        try file.output.write(",\"tags\":")
        try file.output.write(try encoder.encode(tags.names))
        try file.output.write(",\"personalWords\":")
        try file.output.write(try encoder.encode(options.personalWords))
        try file.output.write("}\n")
        try file.commit()
        return [file.destination]
    }

    func discard() { file.discard() }

    /// The envelope's fields, without its closing brace, and the opening of the articles array.
    /// Encoding an envelope with no articles and cutting it keeps the fields exactly as the encoder
    /// writes them.
    private func envelopeOpening(_ header: LibraryArchive) throws -> Data {
        let encoded = try encoder.encode(Envelope(header))
        return encoded.dropLast() + Data(",\"articles\":[".utf8)
    }

    /// The envelope fields that come before the articles.
    private struct Envelope: Encodable {
        let application: String
        let exportedAt: Date
        let format: String
        let formatVersion: Int
        let schemaVersion: Int

        init(_ archive: LibraryArchive) {
            application = archive.application
            exportedAt = archive.exportedAt
            format = archive.format
            formatVersion = archive.formatVersion
            schemaVersion = archive.schemaVersion
        }
    }
}
