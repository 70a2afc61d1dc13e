import Foundation
import ObjectGraph

/// What sync needs of attachments: the bytes to upload by their SHA-256, and the references of
/// pulled articles whose bytes the library does not hold yet. Downloaded bytes are stored with
/// ``addAttachment(to:fileName:data:)``, as a pasted file is.
extension Library {
    /// A reference in an article's body to bytes the article holds no attachment for.
    public struct MissingAttachment: Sendable, Hashable {
        public var articleID: UUID
        public var reference: AttachmentReference

        /// A reference `articleID`'s body makes.
        public init(articleID: UUID, reference: AttachmentReference) {
            self.articleID = articleID
            self.reference = reference
        }

        /// Whether the file name says an image the preview draws (its bytes are not here to sniff;
        /// ``AttachmentMediaType/namesImage(_:)``).
        public var isImage: Bool { AttachmentMediaType.namesImage(reference.fileName) }
    }

    /// The bytes of an attachment with `sha256`, whichever article holds it (a reference pasted
    /// into another article still names them), or nil when no article does. Throws
    /// `ExternalBinaryError` when its file is missing or damaged.
    public func attachmentData(sha256: String) async throws -> Data? {
        try await read { context in
            try context.fetch(FetchRequest<StoredAttachment>(predicate: \.sha256 == sha256)).first?.contents()
        }
    }

    /// ``missingAttachments(in:)`` less the references to bytes another article holds (an
    /// export takes those): what neither the article nor the library has.
    public func unheldAttachments(in articleIDs: [UUID]) async throws -> [MissingAttachment] {
        let missing = try await missingAttachments(in: articleIDs)
        guard !missing.isEmpty else { return [] }
        let held = try await read { context in
            Set(try context.fetch(FetchRequest<StoredAttachment>(predicate: .in(\.sha256, missing.map(\.reference.sha256)))).map(\.sha256))
        }
        return missing.filter { !held.contains($0.reference.sha256) }
    }

    /// The references in the bodies of `articleIDs` (those that exist) that their article holds
    /// no attachment for, each body's in their order.
    public func missingAttachments(in articleIDs: [UUID]) async throws -> [MissingAttachment] {
        try await read { context in
            var missing: [MissingAttachment] = []
            for article in try context.fetch(FetchRequest<StoredArticle>(predicate: .in(\.id, articleIDs))) {
                let held = Set(article.attachments.map(\.sha256))
                for reference in AttachmentReference.all(in: article.body) where !held.contains(reference.sha256) {
                    missing.append(MissingAttachment(articleID: article.id, reference: reference))
                }
            }
            return missing
        }
    }
}
