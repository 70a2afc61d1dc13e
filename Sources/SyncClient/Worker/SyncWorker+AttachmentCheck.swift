import Foundation
import Library
import SyncProtocol

extension SyncWorker {
    /// The references in the bodies of `articleIDs` to bytes no article of the library holds
    /// (``Library/unheldAttachments(in:)``) that the server cannot bring either, with why, in
    /// order: asked with `HEAD` once per digest, so nothing is downloaded. The app's Export dialog
    /// asks this when the writer picks the articles, and fetches the others only when the export
    /// runs (``fetchAttachment(_:of:)``).
    ///
    /// Once the server cannot be reached, the rest are answered ``AttachmentFetch/unreachable``
    /// without asking again (each would wait for the same silence).
    public func checkMissingAttachments(in articleIDs: [UUID]) async throws -> [(missing: Library.MissingAttachment, fetch: AttachmentFetch)] {
        let missing = try await library.unheldAttachments(in: articleIDs)
        guard !missing.isEmpty else { return [] }
        guard let version = await cycle.serverProtocol.version(asking: cycle.transport) else { return missing.map { ($0, .unreachable) } }
        guard version >= ProtocolVersion.blobs else { return missing.map { ($0, .serverKeepsNone) } }
        var onServer = Set<String>()
        var absent: [String: AttachmentFetch] = [:]
        var reachable = true
        var unavailable: [(missing: Library.MissingAttachment, fetch: AttachmentFetch)] = []
        for item in missing {
            let digest = item.reference.sha256
            if !onServer.contains(digest), absent[digest] == nil {
                let why = reachable ? await absence(of: digest) : .unreachable
                if let why { absent[digest] = why } else { onServer.insert(digest) }
                if why == .unreachable { reachable = false }
            }
            if let why = absent[digest] { unavailable.append((item, why)) }
        }
        return unavailable
    }

    /// Nil when the server holds the blob `sha256` names; otherwise why it cannot bring it.
    private func absence(of sha256: String) async -> AttachmentFetch? {
        let answer: ReadAnswer<Int64?>
        do {
            answer = try await cycle.transport.hasBlob(sha256)
        } catch {
            return .unreachable
        }
        switch answer {
        case .success(_?): return nil
        case .success(nil): return .notOnServer
        case .retry, .rejected, .accountRejected, .resyncRequired: return .unreachable
        }
    }
}
