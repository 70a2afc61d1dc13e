import Foundation
import SyncProtocol

/// Threads that each create one article and keep updating it through a server process, and
/// remember every write the server acknowledged and the one in flight when the server went away.
final class WriterPool: @unchecked Sendable {
    struct Write: Hashable {
        var article: String
        var key: String
        var base: Int64?
        var title: String
        var revision: Int64?

        var content: ArticlePayload { ArticlePayload(title: title, body: "\(title) body", tags: ["crash"]) }
    }

    private let lock = NSCondition()
    private var acknowledged: [Write] = []
    private var interrupted: [Write] = []
    private var failures: [String] = []
    private var running = 0

    var acknowledgedWrites: [Write] { lock.lock(); defer { lock.unlock() }; return acknowledged }
    var interruptedWrites: [Write] { lock.lock(); defer { lock.unlock() }; return interrupted }
    var failureMessages: [String] { lock.lock(); defer { lock.unlock() }; return failures }

    /// Starts `count` writers against `port`; each stops at its first transport error.
    func start(count: Int, port: UInt16, token: String) {
        lock.lock()
        running = count
        lock.unlock()
        for writer in 0..<count {
            Thread { [self] in
                let client = LoopbackClient(port: port, token: token)
                var base: Int64?
                for step in 0..<100_000 {
                    var write = Write(article: "writer-\(writer)", key: "writer-\(writer)-\(step)", base: base,
                                      title: "writer \(writer) step \(step)")
                    do {
                        let response = try base.map { try client.update(write.article, write.content, base: $0, key: write.key) }
                            ?? client.create(write.article, write.content, key: write.key)
                        guard (200..<300).contains(response.status), let revision = response.revision else {
                            record(failure: "\(write.article): \(response.status) \(response.text)")
                            break
                        }
                        write.revision = revision
                        base = revision
                        record(acknowledged: write)
                    } catch {
                        record(interrupted: write)
                        break
                    }
                }
                lock.lock()
                running -= 1
                lock.broadcast()
                lock.unlock()
            }.start()
        }
    }

    /// Waits until `count` writes were acknowledged in all.
    func waitForAcknowledged(_ count: Int) {
        lock.lock()
        while acknowledged.count < count, running > 0 { lock.wait() }
        lock.unlock()
    }

    /// Waits until every writer stopped.
    func waitUntilStopped() {
        lock.lock()
        while running > 0 { lock.wait() }
        lock.unlock()
    }

    private func record(acknowledged write: Write) {
        lock.lock()
        acknowledged.append(write)
        lock.broadcast()
        lock.unlock()
    }

    private func record(interrupted write: Write) {
        lock.lock()
        interrupted.append(write)
        lock.unlock()
    }

    private func record(failure: String) {
        lock.lock()
        failures.append(failure)
        lock.unlock()
    }
}
