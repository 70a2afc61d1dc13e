import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// SIGHUP on a running `quire-server serve --config FILE`: the file is read again and what can
/// change while serving changes; the rest is reported as needing a restart; a file with a mistake
/// is refused and the running configuration stays.
@Suite(.serialized) struct ConfigurationReloadTests {
    @Test func sighupAppliesLogFormatRateLimitAndTrustedProxiesAndReportsWhatNeedsARestart() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        let config = database.folder.appendingPathComponent("config")
        try "data = \(directory.path)\nrate-limit = 200\n".write(to: config, atomically: true, encoding: .utf8)
        let token = try ServerProcess.run(["account", "add", "alice", "--config", config.path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(serve: ["--config", config.path], logFile: database.folder.appendingPathComponent("server.log"))
        defer { _ = server.terminate() }
        let client = LoopbackClient(port: server.port, token: token)
        let forwarded = ["X-Forwarded-For": "127.0.0.9"]

        // Before: plain lines, 200 requests a second allowed, nobody's X-Forwarded-For trusted.
        #expect(try client.send("GET", SyncPath.changes, headers: forwarded).status == 200)
        #expect(try client.send("GET", SyncPath.changes, headers: forwarded).status == 200)
        #expect(server.awaitLog("GET /v1/changes 200", count: 2))
        #expect(server.log.contains("client=127.0.0.1") && !server.log.contains("127.0.0.9"))

        try """
            data = \(directory.path)
            log-format = json
            rate-limit = 0.01
            trusted-proxies = 127.0.0.1
            threads = 3
            """.write(to: config, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        #expect(server.awaitLog("SIGHUP: configuration reloaded"))
        #expect(server.log.contains("SIGHUP: threads = 3 needs a restart; 8 stays"))
        // New trusted proxies: a new daemon took over the port and closed the idle connection.
        #expect(try client.awaitClose().isEmpty)
        client.disconnect()

        // After: one request per 100 s (a burst of one), the proxy's client address logged, JSON.
        #expect(try client.send("GET", SyncPath.changes, headers: forwarded).status == 200)
        let refused = try client.send("GET", SyncPath.changes, headers: forwarded)
        #expect(refused.status == 429 && refused.header(SyncHeader.retryAfter) != nil)
        #expect(server.awaitLog("\"status\":429"))
        let afterReload = server.log.components(separatedBy: "SIGHUP: configuration reloaded")[1]
            .split(separator: "\n").dropFirst()
        let requests = try afterReload.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(requests.count == 2 && requests.allSatisfy { $0?["client"] as? String == "127.0.0.9" })

        // A mistake refuses the whole file: the limit is not switched off, the log stays JSON.
        try "data = \(directory.path)\nrate-limit = off\nthreads = many\n".write(to: config, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        #expect(server.awaitLog("the configuration is refused and the running one stays"))
        #expect(server.log.contains("threads must be a whole number"))
        #expect(try client.send("GET", SyncPath.changes, headers: forwarded).status == 429)
        #expect(server.awaitLog("\"status\":429", count: 2))
        #expect(server.terminate() == 0)
    }

    @Test func sighupOpensTheLogFileAgainByNameAfterLogrotateMovedIt() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        let logFile = database.folder.appendingPathComponent("quire-server.log")
        let rotated = database.folder.appendingPathComponent("quire-server.log.1")
        let config = database.folder.appendingPathComponent("config")
        try "data = \(directory.path)\nlog-file = \(logFile.path)\n".write(to: config, atomically: true, encoding: .utf8)
        let server = try ServerProcess(serve: ["--config", config.path], logFile: database.folder.appendingPathComponent("stderr"))
        defer { _ = server.terminate() }
        let client = LoopbackClient(port: server.port)
        #expect(try client.send("GET", SyncPath.health).status == 200)
        #expect(awaitText("GET /v1/health 200", in: logFile, while: server))
        #expect(server.log.isEmpty)

        try FileManager.default.moveItem(at: logFile, to: rotated)
        server.send(SIGHUP)
        #expect(awaitText("SIGHUP: configuration reloaded", in: logFile, while: server))
        #expect(try client.send("GET", SyncPath.changes).status == 401)
        #expect(awaitText("GET /v1/changes 401", in: logFile, while: server))
        let old = try String(contentsOf: rotated, encoding: .utf8)
        #expect(old.contains("GET /v1/health 200") && !old.contains("/v1/changes"))

        // A log file that cannot be opened (here a folder) leaves the log where it was.
        let folder = database.folder.appendingPathComponent("a-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "data = \(directory.path)\nlog-file = \(folder.path)\n".write(to: config, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        #expect(awaitText("the log stays in \(logFile.path)", in: logFile, while: server))
        #expect(try client.send("GET", SyncPath.health).status == 200)
        #expect(awaitText("GET /v1/health 200", in: logFile, while: server))
        #expect(server.terminate() == 0)
    }

    /// Waits until `file` holds `text`; false if the server ended or 30 s passed first (the file
    /// is written by another process: it is read again every 20 ms).
    private func awaitText(_ text: String, in file: URL, while server: ServerProcess) -> Bool {
        let deadline = Date() + 30
        while !((try? String(contentsOf: file, encoding: .utf8))?.contains(text) ?? false) {
            guard server.process.isRunning, Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}
