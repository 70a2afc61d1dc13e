import Foundation
import SyncProtocol

/// An HTTP answer as it arrived, before it is read: status, headers, body.
struct HTTPAnswer: Sendable, Hashable {
    /// The status code.
    var status: Int
    /// Header values by lowercase name.
    var headers: [String: String]
    /// The body, at most the transport's answer limit.
    var body: Data

    init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of the header `name`, whatever its case.
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// A valid `Retry-After`, when the answer has one.
    var retryAfter: RetryAfter? { header(SyncHeader.retryAfter).flatMap(RetryAfter.init(headerValue:)) }

    /// `Idempotent-Replayed: true`.
    var isReplayed: Bool { header(SyncHeader.idempotentReplayed)?.lowercased() == "true" }
}
