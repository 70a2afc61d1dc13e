import Foundation
import Library
import SyncProtocol

/// What asking the sync worker for an attachment came to.
public enum AttachmentFetch: Sendable, Hashable {
    /// The bytes: the library held them, or they were downloaded (their SHA-256 checked) and
    /// stored as the article's attachment now.
    case bytes(Data)
    /// The server holds no such blob either (a reference typed by hand, or one whose upload never
    /// arrived): asking again will not help.
    case notOnServer
    /// The server cannot be reached now (offline, a fault, a server asking to wait); asking again
    /// later may bring them.
    case unreachable
    /// The server keeps no attachments (older than ``ProtocolVersion/blobs``).
    case serverKeepsNone
}

extension SyncWorker {
    /// The bytes of the article's attachment `reference` names: from the library, or, for one a
    /// pull left to download on first use, from the server, then stored as the article's
    /// attachment (its media type from its bytes), so the next use finds it here. Fails only when
    /// the library cannot be read or written.
    public func fetchAttachment(_ reference: AttachmentReference, of articleID: UUID) async throws -> AttachmentFetch {
        if let local = try await library.attachmentData(sha256: reference.sha256, of: articleID) { return .bytes(local) }
        guard let version = await cycle.serverProtocol.version(asking: cycle.transport) else { return .unreachable }
        guard version >= ProtocolVersion.blobs else { return .serverKeepsNone }
        let answer: ReadAnswer<Data?>
        do {
            answer = try await cycle.transport.blob(reference.sha256)
        } catch {
            return .unreachable
        }
        switch answer {
        case .success(let bytes?):
            try await library.addAttachment(to: articleID, fileName: reference.fileName, data: bytes)
            return .bytes(bytes)
        case .success(nil): return .notOnServer
        case .retry, .rejected, .accountRejected, .resyncRequired: return .unreachable
        }
    }

    /// The references in the bodies of `articleIDs` to bytes no article of the library holds
    /// (``Library/unheldAttachments(in:)``), each fetched now (``fetchAttachment(_:of:)``);
    /// answers those still unavailable, with why, in order. An export asks before it runs, so
    /// that the writer knows what it cannot show.
    public func fetchMissingAttachments(in articleIDs: [UUID]) async throws -> [(missing: Library.MissingAttachment, fetch: AttachmentFetch)] {
        var unavailable: [(missing: Library.MissingAttachment, fetch: AttachmentFetch)] = []
        var fetched: [String: AttachmentFetch] = [:]
        for missing in try await library.unheldAttachments(in: articleIDs) {
            let digest = missing.reference.sha256
            // Bytes an earlier reference brought are the export's already (another article holds them).
            let fetch: AttachmentFetch
            if let earlier = fetched[digest] {
                fetch = earlier
            } else {
                fetch = try await fetchAttachment(missing.reference, of: missing.articleID)
                fetched[digest] = fetch
            }
            if case .bytes = fetch { continue }
            unavailable.append((missing, fetch))
        }
        return unavailable
    }
}
