import Foundation
import Library

/// How the Export dialog learns which attachments of the picked articles an export cannot have,
/// and how it gets the others the library lacks when the writer exports: from the library alone
/// (no account syncs), or through the sync worker (``SyncSession``).
///
/// Checking downloads nothing (for the whole library that could be a lot, and the writer may
/// pick another scope or close the dialog): it asks the server whether it has them. Downloading
/// waits for the export.
@MainActor
struct ExportAttachments {
    /// The attachments the articles refer to that an export of them could not have now.
    var check: @MainActor ([UUID]) async throws -> [UnavailableAttachment]
    /// Downloads what the server has of those the library lacks, calling the progress with how
    /// many are done of how many; answers those still unavailable. Cancelling the calling task
    /// stops it before the next download.
    var fetch: @MainActor ([UUID], _ progress: @MainActor (_ done: Int, _ total: Int) -> Void) async throws -> [UnavailableAttachment]

    /// What `library` alone holds: nothing is fetched.
    static func library(_ library: Library) -> ExportAttachments {
        ExportAttachments(
            check: { try await UnavailableAttachment.unheld(in: $0, of: library) },
            fetch: { ids, _ in try await UnavailableAttachment.unheld(in: ids, of: library) })
    }

    /// Through `session`'s worker while signed in (``SyncSession/unavailableAttachments(in:)``,
    /// ``SyncSession/fetchMissingAttachments(in:progress:)``).
    static func sync(_ session: SyncSession) -> ExportAttachments {
        ExportAttachments(
            check: { try await session.unavailableAttachments(in: $0) },
            fetch: { ids, progress in try await session.fetchMissingAttachments(in: ids, progress: progress) })
    }
}
