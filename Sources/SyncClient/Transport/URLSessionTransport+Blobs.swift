import Foundation
import SyncProtocol

/// Blobs: attachments' bytes by their SHA-256. Uploads carry no idempotency key: the same bytes
/// under the same name are the same request, and the server keeps one copy per account.
extension URLSessionTransport {
    public func hasBlob(_ sha256: String) async throws(TransportError) -> ReadAnswer<Int64?> {
        if let rejection = Self.refusal(ofDigest: sha256) { return .rejected(rejection) }
        guard let token = bearer else { return .accountRejected(detail: Self.tokenProblem) }
        let path = SyncPath.blob(sha256)
        let answer = try await load("HEAD", path, headers: [(SyncHeader.authorization, token)])
        return try AnswerReader(method: "HEAD", path: path).hasBlob(answer)
    }

    public func putBlob(_ sha256: String, bytes: Data) async throws(TransportError) -> ReadAnswer<Bool> {
        if let rejection = Self.refusal(ofDigest: sha256) { return .rejected(rejection) }
        guard let token = bearer else { return .accountRejected(detail: Self.tokenProblem) }
        let path = SyncPath.blob(sha256)
        let headers = [(SyncHeader.authorization, token), (SyncHeader.contentType, SyncMediaType.octetStream)]
        let answer = try await load("PUT", path, headers: headers, body: bytes)
        return try AnswerReader(method: "PUT", path: path).putBlob(answer)
    }

    public func blob(_ sha256: String) async throws(TransportError) -> ReadAnswer<Data?> {
        if let rejection = Self.refusal(ofDigest: sha256) { return .rejected(rejection) }
        guard let token = bearer else { return .accountRejected(detail: Self.tokenProblem) }
        let path = SyncPath.blob(sha256)
        let answer = try await load("GET", path, headers: [(SyncHeader.authorization, token)])
        return try AnswerReader(method: "GET", path: path).blob(answer, sha256: sha256)
    }

    private static func refusal(ofDigest sha256: String) -> RequestRejection? {
        BlobReference.isDigest(sha256) ? nil
            : RequestRejection(reason: .refusedBeforeSending, status: nil, detail: "a blob's name must be its SHA-256", field: "sha256")
    }
}
