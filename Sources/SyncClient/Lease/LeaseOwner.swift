import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who holds the library's sync lease: the machine, the process and a random part (two workers
/// in one process are two owners). Written into the `SyncLease` row as `host/pid/nonce`.
public struct LeaseOwner: Sendable, Hashable, CustomStringConvertible {
    /// The machine's host name.
    public let host: String
    /// The process ID on that machine.
    public let process: Int32
    /// Tells apart owners in one process.
    public let nonce: String

    /// A new owner for this process.
    public static func thisProcess() -> LeaseOwner {
        LeaseOwner(host: currentHost, process: getpid(), nonce: String(UUID().uuidString.prefix(8)))
    }

    /// The owner written as `text`, or nil when it is not in the `host/pid/nonce` form.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let process = Int32(parts[1]) else { return nil }
        self.init(host: String(parts[0]), process: process, nonce: String(parts[2]))
    }

    private init(host: String, process: Int32, nonce: String) {
        self.host = host
        self.process = process
        self.nonce = nonce
    }

    /// `host/pid/nonce`.
    public var description: String { "\(host)/\(process)/\(nonce)" }

    /// Whether the owner was a process of this machine that no longer runs, so that its lease can
    /// be taken over at once instead of after it expires (a process killed with `kill -9`).
    var isGoneFromThisMachine: Bool {
        guard host == Self.currentHost, process > 0 else { return false }
        return kill(process, 0) != 0 && errno == ESRCH
    }

    private static let currentHost: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
