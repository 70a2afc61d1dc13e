import Foundation
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Testing

/// Socket activation: `systemd-socket-activate` (what systemd does for `quire-server.socket`)
/// listens, starts the real server at the first connection and passes it the socket; a `quire`
/// client syncs through it. And the unit verifies with `systemd-analyze`.
@Suite(.serialized) struct SocketActivationTests {
    static let activator = "/usr/bin/systemd-socket-activate"
    static let units = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/systemd")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: activator), "systemd-socket-activate is missing (Debian's systemd)"))
    func theServerStartsOnTheFirstConnectionWithThePassedSocketAndAClientSyncs() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        let token = try ServerProcess.run(["account", "add", "alice", "--data", directory.path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let port = try LoopbackSocket.freePort()
        let logFile = database.folder.appendingPathComponent("activated.log")
        #expect(FileManager.default.createFile(atPath: logFile.path, contents: nil))
        // Started through sh and left to run on its own: Foundation's Process, watching the
        // activator, stopped noticing the exits of the quire processes run meanwhile.
        // `listen` names another port: the passed socket is what the server serves.
        let started = try ProgramRun(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$@\" >/dev/null 2>>\"$0\" </dev/null & echo $!", logFile.path,
                                               Self.activator, "--listen", "127.0.0.1:\(port)", try ServerProcess.executable.path,
                                               "serve", "--data", directory.path, "--listen", "127.0.0.1:1"])
        let activator = try #require(Int32(started.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        func log() -> String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }
        // Before a connection the activator itself runs, and it leaves SIGTERM blocked. Once the
        // server logged its stop the process is gone (and its number may be someone else's).
        defer { if !log().contains("stopped") { kill(activator, SIGKILL) } }
        #expect(awaitCondition { log().contains("Listening on 127.0.0.1:\(port)") })
        #expect(!log().contains("serving"), "nothing connected yet: the server has not started")

        let device = ScaleOutTests.Device("writer", in: database.folder)
        #expect(try device.run(["demo", "--articles", "3", "--seed", "7"]).status == 0)
        let written = try device.articles()
        let sync = try device.run(["sync", "--server", "http://127.0.0.1:\(port)", "--token", token])
        #expect(sync.status == 0, "\(sync.error)")
        #expect(log().contains("on the socket systemd passed (127.0.0.1:\(port)); listen is not used"))

        let client = LoopbackClient(port: port, token: token)
        let served = try client.send("GET", SyncPath.articles).decode(ArticlesPage.self).articles
        #expect(Set(served.map { $0.id.lowercased() }) == Set(written.keys))
        // The activator exec'd quire-server in its own process: SIGTERM reaches the server.
        kill(activator, SIGTERM)
        #expect(awaitCondition { log().contains("stopped") })
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "systemd-analyze is missing"))
    func theSocketUnitVerifies() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The service as installed, but with the quire-server built here.
        let service = try String(contentsOf: Self.units.appendingPathComponent("quire-server.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/quire-server", with: try ServerProcess.executable.path)
        try service.write(to: folder.appendingPathComponent("quire-server.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: Self.units.appendingPathComponent("quire-server.socket"),
                                         to: folder.appendingPathComponent("quire-server.socket"))
        // --man=no: the manual page is installed by the package, not here.
        let verify = try ProgramRun(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", "--man=no", folder.appendingPathComponent("quire-server.socket").path,
                                                               folder.appendingPathComponent("quire-server.service").path])
        #expect(verify.status == 0 && verify.error.isEmpty, "\(verify.error)")
    }

    /// Waits until `condition` holds; false after 30 s (another process writes what it reads).
    private func awaitCondition(_ condition: () -> Bool) -> Bool {
        let deadline = Date() + 30
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}
