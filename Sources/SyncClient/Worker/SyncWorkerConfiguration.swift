import Foundation
import Library

/// How a ``SyncWorker`` paces itself.
public struct SyncWorkerConfiguration: Sendable {
    /// The name the library's cursor for this server is kept under: the server's URL.
    public var feedName: String
    /// How often the worker pulls when nothing else wakes it.
    public var pullInterval: TimeInterval
    /// How long the library's sync lease lasts without renewal (a crashed process's lease on
    /// another machine sharing the library is taken over after it; on this machine at once).
    public var leaseDuration: TimeInterval
    /// Changes or articles asked for per page.
    public var pageSize: Int
    /// Requests on the wire at once (each for another article).
    public var maximumInFlight: Int
    /// The waits between tries of an operation.
    public var retryPolicy: RetryPolicy
    /// While offline, the checks of the server's health wait from `probeDelay.lowerBound`,
    /// doubling up to `probeDelay.upperBound`.
    public var probeDelay: ClosedRange<TimeInterval>
    /// Images a pull brings references to are downloaded at once up to this size (bytes); larger
    /// ones, and other files, when first asked for (``downloadsAtOnce(_:size:)``).
    public var eagerAttachmentBytes: Int64 = 10 * 1024 * 1024

    /// A configuration for the server at `server`; the defaults suit the desktop app.
    public init(
        server: URL, pullInterval: TimeInterval = 60, leaseDuration: TimeInterval = 30, pageSize: Int = 500,
        maximumInFlight: Int = 8, retryPolicy: RetryPolicy = RetryPolicy(), probeDelay: ClosedRange<TimeInterval> = 1...60
    ) {
        feedName = Self.feedName(of: server)
        self.pullInterval = pullInterval
        self.leaseDuration = leaseDuration
        self.pageSize = pageSize
        self.maximumInFlight = maximumInFlight
        self.retryPolicy = retryPolicy
        self.probeDelay = probeDelay
    }

    /// Whether a pull downloads `missing` at once rather than when it is first asked for, `size`
    /// being what the server's `Quire-Blob-Size` says: an image by its name (its bytes are not
    /// here yet; they decide its media type once stored) up to ``eagerAttachmentBytes``. The one
    /// rule for eager or lazy.
    public func downloadsAtOnce(_ missing: Library.MissingAttachment, size: Int64) -> Bool {
        missing.isImage && size <= eagerAttachmentBytes
    }

    /// The cursor's name for `server`: its URL without a trailing slash.
    public static func feedName(of server: URL) -> String {
        let text = server.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
