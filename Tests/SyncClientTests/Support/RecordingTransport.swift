import Foundation
import Synchronization
import SyncClient
import SyncProtocol

/// A transport that records every write it sends (idempotency key and who sent it) and passes
/// everything on to another transport.
final class RecordingTransport: ForwardingTransport {
    let label: String
    let inner: any SyncTransport
    let log: WriteLog

    /// Every write sent through any transport that shares the log.
    final class WriteLog: Sendable {
        private let entries = Mutex<[(key: String, sender: String)]>([])
        func append(_ key: String, _ sender: String) { entries.withLock { $0.append((key, sender)) } }
        var all: [(key: String, sender: String)] { entries.withLock { $0 } }
    }

    init(_ label: String, _ inner: any SyncTransport, log: WriteLog) {
        self.label = label
        self.inner = inner
        self.log = log
    }

    func send(_ write: WriteRequest) async throws(TransportError) -> WriteAnswer {
        log.append(write.idempotencyKey, label)
        return try await inner.send(write)
    }
}
