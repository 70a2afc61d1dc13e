import SyncProtocol

/// Why a request was refused for good: by the server (a 4xx that retrying cannot fix) or by the
/// client before sending (content or identifiers the protocol does not allow). The detail is for
/// people and never holds article text.
public struct RequestRejection: Sendable, Hashable, Codable, Error, CustomStringConvertible {
    /// What kind of refusal, for the writer's message.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// 400, 405, 415, 428: the request broke the protocol, or the server refused a field.
        case invalidRequest
        /// 413, 431: the request is larger than the server accepts; 507: an attachment would take
        /// the account past its storage quota.
        case tooLarge
        /// 422: the idempotency key was used for another request. A client bug: an operation's
        /// request must never change once sent.
        case idempotencyKeyReused
        /// Not sent: an identifier or the content breaks the protocol's rules, or the outbox entry
        /// lost the precondition it was first sent with.
        case refusedBeforeSending
        /// Another 4xx the protocol does not name.
        case unexpectedStatus
    }

    /// The kind of refusal.
    public var reason: Reason
    /// The HTTP status; nil when the client refused before sending.
    public var status: Int?
    /// The problem type the server named, when it sent `application/problem+json`.
    public var problemType: ProblemType?
    /// Why, for people.
    public var detail: String?
    /// The field, header or parameter at fault, when known (`title`, `If-Match`).
    public var field: String?

    /// A rejection with the given context.
    public init(reason: Reason, status: Int?, problemType: ProblemType? = nil, detail: String? = nil, field: String? = nil) {
        self.reason = reason
        self.status = status
        self.problemType = problemType
        self.detail = detail
        self.field = field
    }

    /// The rejection a terminal `status` (with its problem, when readable) stands for.
    public init(status: Int, problem: Problem?) {
        let reason: Reason
        switch status {
        case 400, 405, 415, 428: reason = .invalidRequest
        case 413, 431, 507: reason = .tooLarge
        case 422: reason = .idempotencyKeyReused
        default: reason = .unexpectedStatus
        }
        self.init(reason: reason, status: status, problemType: problem?.type, detail: problem?.detail, field: problem?.field)
    }

    /// `tooLarge (413): the body may be at most 4194304 bytes`.
    public var description: String {
        var text = reason.rawValue
        if let status { text += " (\(status))" }
        if let detail { text += ": \(detail)" }
        return text
    }
}
