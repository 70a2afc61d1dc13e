import Foundation
import Library
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient
import Platform
import QuireTestSupport

/// `quire sync` killed with SIGKILL as one of its first requests, chosen at random (seeded),
/// arrives at the server while the writer keeps editing: each restart takes over the dead
/// process's lease, finds what it left on the wire, and in the end the library, a second device
/// and the server hold the same articles with every saved edit.
/// (Serialized: each seed starts and kills `quire sync` processes again and again; the seeds take
/// turns so that three such loops do not share the machine and its time limit.)
@Suite(.serialized) struct KilledSyncTests {
    /// The `quire` built beside the tests.
    static let executable: URL? = try? BuiltProduct.executable("quire")

    /// Starts `quire sync` on the library through `port`, each request given `timeout` seconds.
    /// Its standard error goes to `errors` (nowhere when nil).
    static func startSync(_ device: ClientLibrary, port: UInt16, token: String, timeout: Int = 1, errors: FileHandle? = nil) throws -> Process {
        let process = Process()
        let quire: URL = try #require(executable, "quire is not built beside the tests")
        process.executableURL = quire
        process.arguments = [
            "sync", "--library", device.library.url.path, "--server", "http://127.0.0.1:\(port)", "--token", token, "--timeout", String(timeout),
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": device.folder.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test(.timeLimit(.minutes(2)), arguments: [7, 8, 9] as [UInt64])
    func killedSyncsConvergeAfterRestart(seed: UInt64) async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("killed-a")
        let b = try ClientLibrary("killed-b")
        defer { a.remove(); b.remove() }
        // A slow network widens the windows a kill can land in.
        proxy.randomize(seed: seed, rate: 0.6, faults: [.delay(0.1), .delay(0.2), .dropResponse])

        var random = SeededGenerator(seed: seed)
        var expected: [UUID: [String]] = [:]
        var kills = 0
        for round in 0..<8 {
            for edit in 0..<3 {
                if expected.count < 4 && (round + edit) % 2 == 0 {
                    let lines = (0..<8).map { "Line \($0)." } + [""]
                    let id = try await a.library.createArticle(ArticleContent(title: "Round \(round)", body: lines.joined(separator: "\n"))).id
                    expected[id] = lines
                } else if let id = expected.keys.sorted(by: { $0.uuidString < $1.uuidString }).randomElement(using: &random) {
                    let line = Int.random(in: 0..<8, using: &random)
                    expected[id]![line] = "Line \(line), edit \(round).\(edit)."
                    try await a.edit(id, line: line, to: expected[id]![line])
                }
            }
            // The proxy kills the sync as its point-th request arrives whole (`KillTarget`), and
            // passes the request on: the server may apply what the dead process never hears of.
            // (A kill after a random sleep lands when the sleeping task gets a thread again, which
            // the full suite's load delays: AttachmentKillTests lost every kill that way.)
            let point = Int.random(in: 1...3, using: &random)
            let before = proxy.log.count
            let target = KillTarget()
            proxy.onRequest { number in if number == before + point { target.kill() } }
            let sync = try Self.startSync(a, port: proxy.port, token: token)
            target.arm(sync.processIdentifier)
            await sync.exited()
            proxy.onRequest(nil)
            if target.killed { kills += 1 }
        }

        proxy.randomize(seed: seed, rate: 0, faults: [])
        var finished = false
        for _ in 0..<5 where !finished {
            let sync = try Self.startSync(a, port: proxy.port, token: token)
            await sync.exited()
            let waiting = try await a.waitingOperations()
            finished = sync.terminationStatus == 0 && waiting == 0
        }
        #expect(finished, "seed \(seed): quire sync did not finish cleanly")
        #expect(kills > 0, "seed \(seed): no run was killed")
        try await b.sync(server, token: token)

        let onServer = try await server.articles(token: token)
        #expect(try await a.articles() == onServer, "seed \(seed)")
        #expect(try await b.articles() == onServer, "seed \(seed)")
        for (id, lines) in expected {
            #expect(onServer[id]?.body == lines.joined(separator: "\n"), "seed \(seed): article \(id)")
        }
        #expect(try await a.library.openConflicts().isEmpty)
    }
}
