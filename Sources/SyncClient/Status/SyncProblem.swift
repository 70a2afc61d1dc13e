import Foundation

/// Something that went wrong in a sync cycle, with what the writer can be shown and the details
/// for a bug report (never article text or tokens).
public struct SyncProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: Sendable, Hashable {
        /// The server could not be reached (or did not answer in time).
        case network
        /// The server asked to wait (429 or 503 on the change feed).
        case server
        /// The server refused to sync for good (a protocol mismatch): running again will not help.
        case refused
        /// The library store failed.
        case store
    }

    /// The kind.
    public var kind: Kind
    /// One line for people: "The server cannot be reached".
    public var summary: String
    /// The details: the request, the status, the store's error.
    public var detail: String
    /// When it happened.
    public var time: Date

    /// A problem of `kind`.
    public init(kind: Kind, summary: String, detail: String, time: Date = Date()) {
        self.kind = kind
        self.summary = summary
        self.detail = detail
        self.time = time
    }

    /// Whether the network failed (shown as offline, not as an error).
    public var isNetwork: Bool { kind == .network }

    /// `summary: detail`.
    public var description: String { "\(summary): \(detail)" }
}
