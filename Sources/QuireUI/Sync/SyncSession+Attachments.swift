import Foundation
import Platform
import Library
import SyncClient

/// Attachments a pull left to download, fetched when the preview or an export needs them.
extension SyncSession {
    /// ``SyncWorker/fetchAttachment(_:of:)`` through the running worker, off the main thread;
    /// nil while signed out, or when the library could not store what came.
    func fetchAttachment(_ reference: AttachmentReference, of articleID: UUID) async -> AttachmentFetch? {
        guard let worker else { return nil }
        return try? await worker.fetchAttachment(reference, of: articleID)
    }
}

/// An attachment an export cannot have now: no article of the library holds its bytes, and the
/// server did not bring them when asked.
struct UnavailableAttachment: Sendable, Hashable {
    /// The name the reference gives it.
    var fileName: String
    /// What the sync worker answered; nil when no account syncs.
    var fetch: AttachmentFetch?

    /// Why, as a phrase after the file's name.
    var reason: String {
        switch fetch {
        case .unreachable?: gettext("not downloaded: the server cannot be reached now")
        case .notOnServer?: gettext("neither in this library nor on the server")
        case .serverKeepsNone?, .bytes?, nil: gettext("not in this library")
        }
    }

    /// The references of `articleIDs` to bytes no article of `library` holds, without asking a
    /// server (no account syncs).
    static func unheld(in articleIDs: [UUID], of library: Library) async throws -> [UnavailableAttachment] {
        try await library.unheldAttachments(in: articleIDs).map { UnavailableAttachment(fileName: $0.reference.fileName, fetch: nil) }
    }
}

extension SyncSession {
    /// The attachments `articleIDs` refer to that no article holds, each fetched now through the
    /// worker when signed in: what an export of them cannot show.
    func unavailableAttachments(in articleIDs: [UUID]) async throws -> [UnavailableAttachment] {
        if let worker, let found = try? await worker.fetchMissingAttachments(in: articleIDs) {
            return found.map { UnavailableAttachment(fileName: $0.missing.reference.fileName, fetch: $0.fetch) }
        }
        // The worker could not ask (nothing stored): what the library alone says.
        return try await UnavailableAttachment.unheld(in: articleIDs, of: library)
    }
}
