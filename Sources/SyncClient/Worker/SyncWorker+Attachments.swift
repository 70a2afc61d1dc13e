import Foundation
import Library
import SyncProtocol

extension SyncWorker {
    /// The bytes of the article's attachment named `sha256`: from the library, or, for one a pull
    /// left to download on first use, from the server (then stored as the article's attachment).
    /// Nil when neither holds it, the server is too old to keep attachments, or it cannot be
    /// reached now.
    public func attachmentData(sha256: String, fileName: String, of articleID: UUID) async throws -> Data? {
        if let local = try await library.attachmentData(sha256: sha256, of: articleID) { return local }
        guard let version = await cycle.serverProtocol.version(asking: cycle.transport), version >= ProtocolVersion.blobs else {
            return nil
        }
        let missing = Library.MissingAttachment(articleID: articleID, reference: AttachmentReference(sha256: sha256, fileName: fileName))
        guard (try? await SyncCycle.download(missing, with: cycle.transport, into: library)) == true else { return nil }
        return try await library.attachmentData(sha256: sha256, of: articleID)
    }
}
