import Foundation
import Platform
import SyncProtocol

/// Blobs: attachments' bytes, content-addressed per account (`/v1/blobs/{sha256}`).
///
/// Every answer depends only on the requesting account's own blobs: a digest another account
/// holds answers 404 exactly as one nobody holds, and an upload of it is stored again for this
/// account (and counted against its quota), so no request tells anything about other accounts.
extension SyncService {
    /// `GET` (the bytes) or `HEAD` (`sizeOnly`: whether the account holds it, without reading them).
    func readBlob(_ sha256: String, sizeOnly: Bool, account: AccountID) throws -> HTTPResponse {
        try checkDigest(sha256)
        let headers = [(SyncHeader.contentType, SyncMediaType.octetStream), (SyncHeader.eTag, "\"\(sha256)\"")]
        if sizeOnly {
            // A HEAD comes before an article that refers to the blob: it starts the blob's grace.
            guard let size = try storage.wantBlob(sha256, account: account, at: Date()) else { return .problem(.blobNotFound) }
            return HTTPResponse(status: 200, headers: headers + [(SyncHeader.blobSize, String(size))])
        }
        guard let bytes = try storage.blob(sha256, account: account) else { return .problem(.blobNotFound) }
        return HTTPResponse(status: 200, headers: headers + [(SyncHeader.blobSize, String(bytes.count))], body: bytes)
    }

    /// `PUT`: stores the bytes when they hash to `sha256`. Idempotent by construction: the same
    /// bytes again answer 200 and change nothing; a new blob answers 201.
    func putBlob(_ sha256: String, _ request: HTTPRequest, account: AccountID) throws -> HTTPResponse {
        try checkDigest(sha256)
        let actual = SHA256.hex(request.body)
        guard actual == sha256 else { return .problem(.blobDigestMismatch(sha256, actual: actual)) }
        let headers = [(SyncHeader.eTag, "\"\(sha256)\"")]
        switch try storage.storeBlob(sha256, bytes: request.body, account: account, quota: configuration.blobQuotaBytes, at: Date()) {
        case .stored: return HTTPResponse(status: 201, headers: headers + [(SyncHeader.location, SyncPath.blob(sha256))])
        case .alreadyStored: return HTTPResponse(status: 200, headers: headers)
        case let .overQuota(used):
            return .problem(.quotaExceeded(size: request.body.count, used: used, quota: configuration.blobQuotaBytes ?? 0))
        }
    }

    /// 424 naming the blobs `content`'s body refers to that the account lacks (``BlobReference``),
    /// or nil when it holds them all. Checked before the idempotency key is claimed, so that the
    /// same write goes through once the blobs are uploaded.
    func missingBlobs(of content: ArticlePayload, account: AccountID) throws -> HTTPResponse? {
        guard configuration.protocolVersion >= ProtocolVersion.blobs else { return nil }
        let missing = try storage.missingBlobs(BlobReference.digests(in: content.body), account: account, at: Date())
        return missing.isEmpty ? nil : .problem(.missingBlobs(missing))
    }

    private func checkDigest(_ sha256: String) throws {
        guard BlobReference.isDigest(sha256) else {
            throw Rejection(.problem(.invalidField(FieldViolation(field: "sha256", reason: "must be 64 lower-case hex digits"))))
        }
    }
}
