import Synchronization
import SyncProtocol

/// What a worker knows of its server's ``ProtocolVersion``, learnt from `GET /v1/health`: a write
/// carries only the article fields that server knows (a server from before a field refuses it as
/// unknown). A version older than this build's is asked again at each pull
/// (``forgetOlderVersion()``), so that a server upgraded while the worker runs gets the new
/// fields from the next pull on; this build's version is kept, as no newer field exists to send.
final class ServerProtocol: Sendable {
    private let known = Mutex<Int?>(nil)

    /// Keeps the version a health answer gave.
    func record(_ health: HealthStatus) {
        known.withLock { $0 = health.protocolVersion }
    }

    /// The version last learnt, without asking.
    var knownVersion: Int? { known.withLock { $0 } }

    /// Forgets a version older than ``ProtocolVersion/current``, so that the next write asks again.
    func forgetOlderVersion() {
        known.withLock { version in
            if let known = version, known < ProtocolVersion.current { version = nil }
        }
    }

    /// The server's version, asked with `transport` when not known yet; nil when the server did
    /// not answer, and then asked again next time.
    func version(asking transport: any SyncTransport) async -> Int? {
        if let version = known.withLock({ $0 }) { return version }
        guard case let .success(health)? = try? await transport.health() else { return nil }
        record(health)
        return health.protocolVersion
    }
}

extension WriteRequest {
    /// The request as a server of `version` takes it (``ArticlePayload/forProtocol(_:)``); for an
    /// unknown version (nil), as the first version: its fields every server knows, so the write is
    /// never refused for them. What is left out stays in the library.
    func forProtocol(_ version: Int?) -> WriteRequest {
        guard case let .put(payload, precondition) = action else { return self }
        var request = self
        request.action = .put(payload.forProtocol(version ?? 1), precondition)
        return request
    }
}
