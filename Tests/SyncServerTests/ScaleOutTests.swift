import Foundation
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Testing

/// The reference deployment for growing past one machine: two quire-server processes on one
/// PostgreSQL database behind nginx (round robin, TLS at nginx), two devices syncing through it
/// with the real `quire` client, and one server killed while a device pushes: the devices
/// converge and nothing a server acknowledged is lost.
@Suite(.serialized) struct ScaleOutTests {
    /// `quire` beside the tests, run on one library with its home out of the writer's.
    struct Device {
        let library: URL
        let home: URL

        init(_ name: String, in folder: URL) {
            library = folder.appendingPathComponent("\(name).quire")
            home = folder.appendingPathComponent("home-\(name)")
        }

        func run(_ arguments: [String]) throws -> ProgramRun {
            let quire = try ServerProcess.executable.deletingLastPathComponent().appendingPathComponent("quire")
            let environment = "XDG_DATA_HOME=\(home.path) XDG_CONFIG_HOME=\(home.path) DBUS_SESSION_BUS_ADDRESS=disabled:"
            return try ProgramRun(URL(fileURLWithPath: "/usr/bin/env"), environment.split(separator: " ").map(String.init) + [quire.path]
                                    + arguments + ["--library", library.path])
        }

        /// The device's live articles: ID and title.
        func articles() throws -> [String: String] {
            let listed = try run(["list", "--json"])
            let rows = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                (row["id"] as? String).map { ($0.lowercased(), row["title"] as? String ?? "") }
            })
        }
    }

    @Test func twoServersBehindNginxLoseNothingWhenOneIsKilledMidPush() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let database = try TestDatabase(.postgres)
        defer { database.remove() }
        guard case let .postgres(url) = database.location else { return }
        let token = try ServerProcess.run(["account", "add", "writer", "--postgres", url]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // A short lease: a write the killed server had claimed is free for its retry after 2 s, not 30.
        let arguments = ["--postgres", url, "--trusted-proxies", "127.0.0.1", "--rate-limit", "off", "--threads", "4",
                         "--operation-lease", "2s"]
        let first = try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("first.log"))
        let second = try ServerProcess(serve: arguments, logFile: database.folder.appendingPathComponent("second.log"))
        defer { _ = second.terminate() }
        let proxy = try ReverseProxy(upstreams: [first.port, second.port], certificates: certificates)
        defer { proxy.stop() }

        let server = "https://127.0.0.1:\(proxy.port)"
        let sync = ["sync", "--server", server, "--token", token, "--ca-file", certificates.authority.path, "--timeout", "20"]
        let a = Device("a", in: database.folder)
        let b = Device("b", in: database.folder)
        #expect(try a.run(["demo", "--articles", "120", "--seed", "1"]).status == 0)
        #expect(try b.run(["demo", "--articles", "40", "--seed", "2"]).status == 0)
        // The demo puts a few articles in the trash; the live ones are what must reach the server.
        let written = try a.articles().merging(try b.articles()) { first, _ in first }
        #expect(written.count > 100)

        // Both devices push at once; once the first server has answered some of A's writes, it dies.
        let pushes = DispatchGroup()
        let results = LockedList<(String, Int32, String)>()
        for (name, device) in [("a", a), ("b", b)] {
            pushes.enter()
            Thread {
                defer { pushes.leave() }
                let result = (try? device.run(sync)).map { ($0.status, $0.error) } ?? (-1, "could not run")
                results.append((name, result.0, result.1))
            }.start()
        }
        #expect(first.awaitLog("PUT /v1/articles/", count: 20))
        first.crash()
        pushes.wait()
        // Whatever the first round left (a write whose answer died with the server is looked up or
        // sent again with its key), the next rounds finish, through the server that lives.
        for device in [a, b, a, b] {
            let again = try device.run(sync)
            #expect(again.status == 0, "\(again.error)")
        }

        // What the surviving server holds, read from it directly.
        let direct = LoopbackClient(port: second.port, token: token)
        let onServer = Dictionary(uniqueKeysWithValues: try direct.send("GET", SyncPath.articles + "?limit=1000")
            .decode(ArticlesPage.self).articles.map { ($0.id.lowercased(), $0.content.title) })
        #expect(onServer == written)
        #expect(try a.articles() == onServer)
        #expect(try b.articles() == onServer)
        // Each change committed once: no article was created twice by a write sent twice.
        let feed = try direct.allChanges()
        #expect(feed.count == written.count && Set(feed.map(\.id)).count == written.count)
        // Both servers took writes before the kill (round robin), and nginx sent the rest on.
        #expect(first.log.contains("PUT /v1/articles/") && second.log.contains("PUT /v1/articles/"))
    }
}
