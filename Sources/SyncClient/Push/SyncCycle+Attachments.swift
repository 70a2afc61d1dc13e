import Foundation
import Synchronization
import Library
import SyncProtocol

/// Attachments travel as blobs beside the articles that refer to them (`/v1/blobs/{sha256}`).
///
/// Before an article's `PUT`, each blob its body refers to (``BlobReference``, the rule the
/// server checks) is asked for with `HEAD` and uploaded when the server lacks it. Nothing of this
/// is persisted: an upload is idempotent by its content, so an operation that is sent again after
/// a kill, a fault or a retry simply asks again, and the article never reaches the server before
/// its blobs. After a pull, the blobs of pulled articles that the library lacks are downloaded
/// and stored as the article's attachments: at once for images up to
/// ``SyncWorkerConfiguration/eagerAttachmentBytes`` (``SyncWorkerConfiguration/downloadsAtOnce(_:size:)``),
/// the rest when first asked for (``SyncWorker/fetchAttachment(_:of:)``). A server older than
/// ``ProtocolVersion/blobs`` keeps no blobs: then nothing is uploaded or downloaded, and the
/// status says so.
extension SyncCycle {
    /// Uploads the blobs `request` refers to that the server lacks. Nil when the write may go;
    /// otherwise the event that ends this send instead (the article itself was not sent).
    static func uploadBlobs(
        of request: WriteRequest, with transport: any SyncTransport, protocolVersion: Int?, library: Library
    ) async -> (OperationEvent, TransportError?)? {
        guard case let .put(payload, _) = request.action else { return nil }
        let digests = BlobReference.digests(in: payload.body)
        guard !digests.isEmpty else { return nil }
        // Whether the server keeps blobs is not known (its health did not answer): the write
        // waits rather than go without its blobs to a server that would refuse it for good.
        guard let protocolVersion else { return (.notSent, nil) }
        guard protocolVersion >= ProtocolVersion.blobs else { return nil }
        for digest in digests {
            do throws(TransportError) {
                let held: ReadAnswer<Int64?> = try await transport.hasBlob(digest)
                if let stop = halt(held) { return (stop, nil) }
                if case .success(_?) = held { continue }
                // Bytes the library lacks (a reference typed by hand, an attachment not downloaded
                // yet) are not uploaded: the server then names them in its 424, for the writer.
                let bytes: Data?? = try? await library.attachmentData(sha256: digest)
                guard let bytes = bytes ?? nil else { continue }
                let uploaded: ReadAnswer<Bool> = try await transport.putBlob(digest, bytes: bytes)
                if let stop = halt(uploaded) { return (stop, nil) }
            } catch {
                // Whatever became of the upload, the article was not sent: sending it again is safe.
                return (.notSent, error)
            }
        }
        return nil
    }

    /// The event a blob answer that is not a success drives for the article's write.
    private static func halt<Value>(_ answer: ReadAnswer<Value>) -> OperationEvent? {
        switch answer {
        case .success: return nil
        case let .retry(advice): return .answered(.retry(advice))
        case let .rejected(rejection): return .answered(.rejected(rejection))
        case let .accountRejected(detail): return .answered(.accountRejected(detail: detail))
        case .resyncRequired: return .notSent
        }
    }

    /// Downloads the blobs the bodies of `articleIDs` refer to that their articles lack, for
    /// images up to `eagerAttachmentBytes`, and stores each as an attachment of its article;
    /// answers how many it stored. Articles with a download that failed (a fault, a server that
    /// asked to wait) are kept and tried again with the next pull's, in this worker.
    func downloadAttachments(in articleIDs: [UUID]) async throws -> Int {
        let wanted = pendingDownloads.adding(articleIDs)
        guard !wanted.isEmpty, let version = await serverProtocol.version(asking: transport), version >= ProtocolVersion.blobs else {
            return 0
        }
        var stored = 0
        var failed = Set<UUID>()
        // Only names that could pass the rule are asked for (one HEAD each).
        for missing in try await store.library.missingAttachments(in: wanted) where missing.isImage {
            do {
                guard case let .success(size) = try await transport.hasBlob(missing.reference.sha256) else {
                    failed.insert(missing.articleID)
                    continue
                }
                // A blob the server does not hold (a reference typed by hand) is not asked for again.
                guard let size, configuration.downloadsAtOnce(missing, size: size) else { continue }
                if try await Self.download(missing, with: transport, into: store.library) { stored += 1 } else { failed.insert(missing.articleID) }
            } catch is TransportError {
                failed.insert(missing.articleID)
            } catch {
                // The library would not take it (the article went meanwhile, a full disk): the
                // pull itself stands; the image is fetched when first asked for.
                continue
            }
        }
        pendingDownloads.keep(failed)
        return stored
    }

    /// Downloads one blob and stores it as an attachment of its article; false when the server
    /// does not hold it or did not answer usefully.
    static func download(_ missing: Library.MissingAttachment, with transport: any SyncTransport, into library: Library) async throws -> Bool {
        guard case let .success(bytes?) = try await transport.blob(missing.reference.sha256) else { return false }
        try await library.addAttachment(to: missing.articleID, fileName: missing.reference.fileName, data: bytes)
        return true
    }
}

/// The pulled articles whose images are still to be downloaded, shared by a worker's cycles.
final class PendingDownloads: Sendable {
    private let articles = Mutex<Set<UUID>>([])

    /// Adds `articleIDs` and answers every article pending now.
    func adding(_ articleIDs: [UUID]) -> [UUID] {
        articles.withLock { pending in
            pending.formUnion(articleIDs)
            return Array(pending)
        }
    }

    /// Keeps only `articleIDs` pending.
    func keep(_ articleIDs: Set<UUID>) {
        articles.withLock { $0 = articleIDs }
    }
}
