import Foundation
import Platform
import Library
import SyncClient

/// What asking for an attachment's bytes came to in the app: the sync worker's answer (the bytes,
/// or why the server did not bring them), or the library's failure to read or store them, said
/// as the writer reads it (the preview's placeholder and the Export dialog's note show it).
enum AttachmentAnswer: Sendable, Hashable {
    /// The bytes, or what the worker answered instead (``AttachmentFetch``).
    case worker(AttachmentFetch)
    /// The library could not read the attachment or store the bytes that came.
    case libraryFailed(ErrorExplanation)

    /// The bytes, when there are some.
    var bytes: Data? {
        guard case .worker(.bytes(let data)) = self else { return nil }
        return data
    }
}

/// Attachments a pull left to download, fetched when the preview or an export needs them.
extension SyncSession {
    /// ``SyncWorker/fetchAttachment(_:of:)`` through the running worker, off the main thread;
    /// nil while signed out. A library that cannot read or store the bytes is answered as
    /// ``AttachmentAnswer/libraryFailed(_:)``, never as "signed out".
    func fetchAttachment(_ reference: AttachmentReference, of articleID: UUID) async -> AttachmentAnswer? {
        guard let worker else { return nil }
        do {
            return .worker(try await worker.fetchAttachment(reference, of: articleID))
        } catch {
            return .libraryFailed(ErrorExplanation(error, libraryPath: library.url.path))
        }
    }

    /// The attachments `articleIDs` refer to that no article holds and the server cannot bring
    /// either, asked with `HEAD` (``SyncWorker/checkMissingAttachments(in:)``): nothing is
    /// downloaded. Signed out, those no article holds.
    func unavailableAttachments(in articleIDs: [UUID]) async throws -> [UnavailableAttachment] {
        guard let worker else { return try await UnavailableAttachment.unheld(in: articleIDs, of: library) }
        return try await worker.checkMissingAttachments(in: articleIDs).map(unavailable)
    }

    /// Downloads the attachments `articleIDs` refer to that no article holds, through the worker
    /// (``SyncWorker/fetchMissingAttachments(in:progress:)``: one digest at a time, `progress`
    /// before each and after the last, a cancelled task stops before the next download); answers
    /// those still unavailable, with why, an attachment the library could not store among them.
    /// Signed out, nothing is downloaded.
    func fetchMissingAttachments(
        in articleIDs: [UUID], progress: @MainActor (_ done: Int, _ total: Int) -> Void
    ) async throws -> [UnavailableAttachment] {
        guard let worker else { return try await UnavailableAttachment.unheld(in: articleIDs, of: library) }
        return try await worker.fetchMissingAttachments(in: articleIDs, progress: progress).map(unavailable)
    }

    /// A reference the worker could not bring, as the app names it.
    private func unavailable(_ found: (missing: Library.MissingAttachment, fetch: Result<AttachmentFetch, any Error>)) -> UnavailableAttachment {
        let answer: AttachmentAnswer = switch found.fetch {
        case .success(let fetch): .worker(fetch)
        case .failure(let error): .libraryFailed(ErrorExplanation(error, libraryPath: library.url.path))
        }
        return UnavailableAttachment(fileName: found.missing.reference.fileName, answer: answer)
    }
}

/// An attachment an export cannot have now: no article of the library holds its bytes, and the
/// server does not have them, could not be asked, or brought them where the library could not
/// store them.
struct UnavailableAttachment: Sendable, Hashable {
    /// The name the reference gives it.
    var fileName: String
    /// What asking for it came to; nil when no account syncs.
    var answer: AttachmentAnswer?

    /// Why, as a phrase after the file's name.
    var reason: String {
        switch answer {
        case .worker(.unreachable)?: gettext("not downloaded: the server cannot be reached now")
        case .worker(.notOnServer)?: gettext("neither in this library nor on the server")
        case .libraryFailed(let explanation)?:
            String(cFormat: gettext("the library could not take it from the server: %s"), explanation.sentence)
        case .worker(.serverKeepsNone)?, .worker(.bytes)?, nil: gettext("not in this library")
        }
    }

    /// The references of `articleIDs` to bytes no article of `library` holds, without asking a
    /// server (no account syncs).
    static func unheld(in articleIDs: [UUID], of library: Library) async throws -> [UnavailableAttachment] {
        try await library.unheldAttachments(in: articleIDs).map { UnavailableAttachment(fileName: $0.reference.fileName, answer: nil) }
    }
}
