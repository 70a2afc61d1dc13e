import Foundation
import ObjectGraph
import Platform

/// Attachments: files the writer puts in an article (``StoredAttachment``). Adding one is one save and
/// no edit of the article: the editor inserts the reference (``AttachmentReference``) into the
/// text, which saves as any typing does. Removing a reference from the text keeps the attachment
/// (undo brings the reference back); ``removeUnreferencedAttachments()`` and emptying the trash
/// remove what nothing refers to any more.
extension Library {
    /// The largest attachment a library takes, in bytes (25 MB).
    public static let attachmentSizeLimit = 25 * 1024 * 1024

    /// Stores `data` as an attachment of the article named `fileName` and returns it. The same
    /// bytes added to the same article again give the attachment it has already. Throws
    /// ``LibraryError/attachmentTooLarge(fileName:size:limit:)`` above ``attachmentSizeLimit``.
    @discardableResult
    public func addAttachment(to articleID: UUID, fileName: String, data: Data) async throws -> AttachmentSummary {
        try Self.checkAttachment(fileName: fileName, data: data)
        return try await write { context, now in
            try Self.insertAttachment(to: articleID, fileName: fileName, data: data, in: context, at: now).summary
        }
    }

    /// ``addAttachment(to:fileName:data:)`` in the view context, saved before it returns: for the
    /// editor, which inserts the reference at once.
    @MainActor
    @discardableResult
    public func addAttachmentInViewContext(to articleID: UUID, fileName: String, data: Data) throws -> AttachmentSummary {
        try Self.checkAttachment(fileName: fileName, data: data)
        return try writeInViewContext { context, now in
            try Self.insertAttachment(to: articleID, fileName: fileName, data: data, in: context, at: now)
        }.summary
    }

    /// The article's attachments, oldest first.
    public func attachments(of articleID: UUID) async throws -> [AttachmentSummary] {
        try await read { context in try Self.attachments(of: articleID, in: context).map(\.summary) }
    }

    /// The bytes of the article's attachment with `sha256` (nil when it has none such); throws
    /// `ExternalBinaryError` when its file is missing or damaged.
    public func attachmentData(sha256: String, of articleID: UUID) async throws -> Data? {
        try await read { context in try Self.attachment(sha256: sha256, of: articleID, in: context)?.contents() }
    }

    /// ``attachmentData(sha256:of:)`` from the view context, for the editor and the preview.
    @MainActor
    public func attachmentDataInViewContext(sha256: String, of articleID: UUID) throws -> Data? {
        try Self.attachment(sha256: sha256, of: articleID, in: container.viewContext)?.contents()
    }

    /// Deletes the attachments that no text of their article refers to (its body, its recovered
    /// draft, its merge base, its saved versions: a version restored later still finds its
    /// images), then the files no attachment needs; returns how many attachments went.
    @discardableResult
    public func removeUnreferencedAttachments() async throws -> Int {
        let removed = try await write { context, _ in
            var removed = 0
            let attachments = try context.fetch(FetchRequest<StoredAttachment>())
            for (article, group) in Dictionary(grouping: attachments, by: { $0.article?.id }) {
                guard let article else { continue }
                let texts = try Self.texts(of: article, in: context)
                for attachment in group where !texts.contains(where: { $0.contains(AttachmentReference.scheme + ":" + attachment.sha256) }) {
                    context.delete(attachment)
                    removed += 1
                }
            }
            return removed
        }
        try container.persistentStore.collectExternalBinaries()
        return removed
    }

    /// Every text of the article that may refer to its attachments.
    private static func texts(of articleID: UUID, in context: ManagedObjectContext) throws -> [String] {
        let article = try LibraryNames.article(articleID, in: context)
        var texts = [article.body] + article.drafts.map(\.body)
        texts += try context.fetch(FetchRequest<ArticleBase>(predicate: \.articleID == articleID)).map(\.body)
        texts += try context.fetch(FetchRequest<ArticleVersion>(predicate: \.articleID == articleID)).map(\.body)
        return texts
    }

    static func checkAttachment(fileName: String, data: Data) throws {
        guard data.count <= attachmentSizeLimit else {
            throw LibraryError.attachmentTooLarge(fileName: fileName, size: data.count, limit: attachmentSizeLimit)
        }
    }

    static func insertAttachment(
        to articleID: UUID, fileName: String, data: Data, in context: ManagedObjectContext, at now: Date
    ) throws -> StoredAttachment {
        let article = try LibraryNames.article(articleID, in: context)
        let digest = SHA256.hex(data)
        if let existing = try attachment(sha256: digest, of: articleID, in: context) { return existing }
        let attachment = StoredAttachment(context: context)
        attachment.id = UUID()
        attachment.fileName = Self.attachmentName(fileName)
        attachment.mediaType = AttachmentMediaType.of(data)
        attachment.size = Int64(data.count)
        attachment.sha256 = digest
        attachment.created = now
        try attachment.setValue(data, forKey: "bytes")
        attachment.article = article
        return attachment
    }

    /// The last component of `name`, without control characters; "attachment" when nothing is left.
    static func attachmentName(_ name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
            .trimmingCharacters(in: .whitespaces)
        return clean.isEmpty || clean == "." || clean == ".." ? "attachment" : clean
    }

    private static func attachments(of articleID: UUID, in context: ManagedObjectContext) throws -> [StoredAttachment] {
        let article = try LibraryNames.article(articleID, in: context)
        return article.attachments.sorted { ($0.created, $0.fileName) < ($1.created, $1.fileName) }
    }

    static func attachment(sha256: String, of articleID: UUID, in context: ManagedObjectContext) throws -> StoredAttachment? {
        try attachments(of: articleID, in: context).first { $0.sha256 == sha256 }
    }
}
