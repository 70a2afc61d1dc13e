import Foundation
import ObjectGraph
import Platform

/// An attachment with its bytes, as an export writes it and an import brings it back.
public struct AttachmentFile: Sendable, Hashable {
    /// The name the file had, without folders.
    public var fileName: String
    /// Its media type, from its bytes (``AttachmentMediaType``).
    public var mediaType: String
    /// The SHA-256 the article's references name.
    public var sha256: String
    /// The bytes; nil when they cannot be read, and then ``problem`` says why.
    public var data: Data?
    /// Why the bytes cannot be read, as a sentence for the writer; nil when they can.
    public var problem: String?

    /// The file `fileName` holding `data`.
    public init(fileName: String, data: Data) {
        self.fileName = Library.attachmentName(fileName)
        mediaType = AttachmentMediaType.of(data)
        sha256 = SHA256.hex(data)
        self.data = data
    }

    /// A file whose bytes cannot be had, for `problem`.
    public init(reference: AttachmentReference, mediaType: String = AttachmentMediaType.other, problem: String) {
        fileName = reference.fileName
        self.mediaType = mediaType
        sha256 = reference.sha256
        self.problem = problem
    }

    /// The reference an article's Markdown uses for it.
    public var reference: AttachmentReference { AttachmentReference(sha256: sha256, fileName: fileName) }
}

extension AttachmentReference {
    /// `text` with each reference replaced by what `replacement` gives for it and the text before
    /// it; a reference it gives nil for stays as it is.
    public static func replacing(
        in text: String, _ replacement: (AttachmentReference, _ before: Substring) -> String?
    ) -> String {
        var result = ""
        var copied = text.startIndex
        for (range, reference) in occurrences(in: text) {
            guard let new = replacement(reference, text[copied..<range.lowerBound]) else { continue }
            result += text[copied..<range.lowerBound]
            result += new
            copied = range.upperBound
        }
        return result + text[copied...]
    }
}

extension LibraryArticleSource {
    /// The attachments an export of `article` needs, with their bytes: every attachment of the
    /// article, then those its text refers to that another article holds; a reference to bytes
    /// the library does not have, or whose file is missing or damaged, comes with its problem.
    public func attachments(of article: ArticleSnapshot) async throws -> [AttachmentFile] {
        let references = AttachmentReference.all(in: article.body)
        let unheldProblems = unheldProblems
        return try await library.read { context in
            let own = try context.fetch(FetchRequest<StoredAttachment>(predicate: \.article?.id == article.id))
                .sorted { ($0.created, $0.fileName) < ($1.created, $1.fileName) }
            var files = own.map(Self.file)
            var held = Set(files.map(\.sha256))
            let elsewhere = references.filter { !held.contains($0.sha256) }
            let others: [StoredAttachment] = elsewhere.isEmpty ? [] : Array(try context.fetch(
                FetchRequest<StoredAttachment>(predicate: .in(\.sha256, elsewhere.map(\.sha256)))))
            for reference in elsewhere where held.insert(reference.sha256).inserted {
                if let other = others.first(where: { $0.sha256 == reference.sha256 }) {
                    var file = Self.file(other)
                    file.fileName = reference.fileName
                    files.append(file)
                } else {
                    files.append(AttachmentFile(
                        reference: reference, problem: unheldProblems[reference.sha256] ?? "the library holds no attachment with these bytes"))
                }
            }
            return files
        }
    }

    /// Which of `articles` have attachments of their own, in one read (an export asks
    /// ``attachments(of:)`` only for these and for articles whose text refers to one).
    public func articlesWithAttachments(among articles: [ArticleSnapshot]) async throws -> Set<UUID> {
        let ids = articles.map(\.id)
        return try await library.read { context in
            let request = FetchRequest<StoredArticle>(predicate: .in(\.id, ids) && .count(\.attachments, .greater, 0))
            return Set(try context.fetchDictionaries(request, propertiesToFetch: ["id"]).compactMap { $0["id"] as? UUID })
        }
    }

    private static func file(_ attachment: StoredAttachment) -> AttachmentFile {
        do {
            var file = AttachmentFile(fileName: attachment.fileName, data: try attachment.contents())
            guard file.sha256 == attachment.sha256 else {
                file = AttachmentFile(
                    reference: attachment.summary.reference, mediaType: attachment.mediaType,
                    problem: "its bytes changed after it was added")
                return file
            }
            file.fileName = attachment.fileName
            return file
        } catch let error as ExternalBinaryError {
            return AttachmentFile(reference: attachment.summary.reference, mediaType: attachment.mediaType, problem: error.description)
        } catch {
            return AttachmentFile(
                reference: attachment.summary.reference, mediaType: attachment.mediaType, problem: "its bytes cannot be read")
        }
    }
}

extension Library {
    /// Gives the article the attachments of `files` it lacks (lost, or never downloaded from the
    /// server), and writes back the bytes of those it holds whose file is missing or damaged
    /// (through the store's external storage, which replaces a file whole and durably): one save,
    /// no edit of the article, nothing deleted. Answers how many attachments were added or
    /// written back. An import calls it for articles the library has exactly as imported.
    public func restoreAttachments(_ files: [AttachmentFile], to articleID: UUID) async throws -> Int {
        guard files.contains(where: { $0.data != nil }) else { return 0 }
        return try await write { context, now in
            let (added, repaired) = try Self.importAttachments(files, to: articleID, in: context, at: now)
            return added + repaired
        }
    }

    /// Adds an import's `files` to `articleID` (in the import's transaction): files without bytes
    /// are left out, and bytes the article holds already are not added twice, but written back
    /// where the library can no longer read them as they were added (their file missing or
    /// damaged). Answers how many were added and how many written back.
    @discardableResult
    static func importAttachments(
        _ files: [AttachmentFile], to articleID: UUID, in context: ManagedObjectContext, at now: Date
    ) throws -> (added: Int, repaired: Int) {
        var added = 0
        var repaired = 0
        for file in files {
            guard let data = file.data else { continue }
            try checkAttachment(fileName: file.fileName, data: data)
            if let held = try attachment(sha256: file.sha256, of: articleID, in: context) {
                guard !held.holdsItsBytes else { continue }
                // The same bytes set again: the save writes their file anew (a damaged one is
                // replaced by a renamed temporary file), and the row keeps its reference.
                try held.setValue(data, forKey: "bytes")
                repaired += 1
            } else {
                _ = try insertAttachment(to: articleID, fileName: file.fileName, data: data, in: context, at: now)
                added += 1
            }
        }
        return (added, repaired)
    }
}

extension StoredAttachment {
    /// Whether its bytes can be read and still have the SHA-256 they were added with.
    var holdsItsBytes: Bool {
        guard let data = try? contents() else { return false }
        return SHA256.hex(data) == sha256
    }
}
