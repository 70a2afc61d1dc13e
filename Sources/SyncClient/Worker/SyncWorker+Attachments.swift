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
    /// (``Library/unheldAttachments(in:)``), each digest fetched now (``fetchAttachment(_:of:)``),
    /// one after another; answers those still unavailable, with why, in order. An export asks
    /// before it writes, so that it holds what the server has and can name what it cannot show.
    ///
    /// `progress` hears how many digests are done of how many, before each and after the last
    /// (the app's Export dialog shows it). Bytes the library cannot store (or an attachment it
    /// cannot read) are that reference's answer, `.failure` with the library's error, and the
    /// others are still fetched. A cancelled task throws `CancellationError` before the next
    /// download (the one under way is aborted by the transport).
    public func fetchMissingAttachments(
        in articleIDs: [UUID], progress: @Sendable (_ done: Int, _ total: Int) async -> Void = { _, _ in }
    ) async throws -> [(missing: Library.MissingAttachment, fetch: Result<AttachmentFetch, any Error>)] {
        try await unavailableAttachments(in: articleIDs, progress: progress) { missing in
            do {
                let fetch = try await self.fetchAttachment(missing.reference, of: missing.articleID)
                if case .bytes = fetch { return nil }
                return .success(fetch)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Which references in the bodies of `articleIDs` to bytes no article of the library holds
    /// the server cannot give, asked with `HEAD` only: nothing is downloaded or stored. Answers
    /// those unavailable, with why, in order (what ``fetchMissingAttachments(in:progress:)``
    /// would answer, short of a library that cannot store the bytes; never `.failure`): for a
    /// dialog that names them before the writer exports, and fetches at export.
    public func checkMissingAttachments(
        in articleIDs: [UUID]
    ) async throws -> [(missing: Library.MissingAttachment, fetch: Result<AttachmentFetch, any Error>)] {
        try await unavailableAttachments(in: articleIDs) { missing in await self.serverHolds(missing.reference).map { .success($0) } }
    }

    /// Nil when the server holds the blob `reference` names; else why it cannot be had.
    private func serverHolds(_ reference: AttachmentReference) async -> AttachmentFetch? {
        guard let version = await cycle.serverProtocol.version(asking: cycle.transport) else { return .unreachable }
        guard version >= ProtocolVersion.blobs else { return .serverKeepsNone }
        switch try? await cycle.transport.hasBlob(reference.sha256) {
        case .success(_?)?: return nil
        case .success(nil)?: return .notOnServer
        case .retry?, .rejected?, .accountRejected?, .resyncRequired?, nil: return .unreachable
        }
    }

    /// The unheld references of `articleIDs` for which `ask` answers why they cannot be had (nil:
    /// they can), each digest asked once, in the order of its first reference (bytes an earlier
    /// reference brought are the export's already: another article holds them). Once the server
    /// could not be reached or keeps no attachments, the rest get that answer without asking:
    /// an export of many articles does not wait for each. `progress` and cancellation as in
    /// ``fetchMissingAttachments(in:progress:)``.
    private func unavailableAttachments(
        in articleIDs: [UUID], progress: @Sendable (_ done: Int, _ total: Int) async -> Void = { _, _ in },
        asking ask: (Library.MissingAttachment) async -> Result<AttachmentFetch, any Error>?
    ) async throws -> [(missing: Library.MissingAttachment, fetch: Result<AttachmentFetch, any Error>)] {
        let missing = try await library.unheldAttachments(in: articleIDs)
        var seen = Set<String>()
        let asked = missing.filter { seen.insert($0.reference.sha256).inserted }
        var answers: [String: Result<AttachmentFetch, any Error>] = [:]
        var serverAnswer: AttachmentFetch?
        for (done, item) in asked.enumerated() {
            await progress(done, asked.count)
            try Task.checkCancellation()
            let answer: Result<AttachmentFetch, any Error>? = if let serverAnswer { .success(serverAnswer) } else { await ask(item) }
            if case .success(let fetch)? = answer, fetch == .unreachable || fetch == .serverKeepsNone { serverAnswer = fetch }
            answers[item.reference.sha256] = answer
        }
        try Task.checkCancellation()
        await progress(asked.count, asked.count)
        return missing.compactMap { item in answers[item.reference.sha256].map { (item, $0) } }
    }
}

extension AttachmentFetch {
    /// Why an export cannot have the bytes, as its sentence about a file says it (English, as the
    /// library's own problems); nil for bytes.
    public var problem: String? {
        switch self {
        case .bytes: nil
        case .notOnServer: "neither the library nor the sync server holds these bytes"
        case .unreachable: "the library lacks these bytes and the sync server could not be reached"
        case .serverKeepsNone: "the library lacks these bytes and the sync server keeps no attachments"
        }
    }
}
