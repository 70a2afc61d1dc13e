import Foundation
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Testing

/// quire-server behind Debian's nginx with the project's proxy settings: TLS ends at nginx, and
/// the client address nginx forwards is the one quire-server logs and limits.
@Suite(.serialized) struct ReverseProxyTests {
    @Test func nginxTerminatesTLSAndForwardsTheClientAddress() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        let token = try ServerProcess.run(["account", "add", "alice", "--data", directory.path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(serve: ["--data", directory.path, "--trusted-proxies", "127.0.0.1,::1", "--auth-failure-limit", "3"],
                                       logFile: database.folder.appendingPathComponent("server.log"))
        defer { _ = server.terminate() }
        let proxy = try ReverseProxy(upstreams: [server.port], certificates: certificates)
        defer { proxy.stop() }

        func curl(_ path: String, from address: String, _ extra: [String] = []) throws -> Int {
            let result = try ProgramRun(URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--output", "/dev/null", "--write-out", "%{http_code}",
                                                        "--cacert", certificates.authority.path, "--interface", address] + extra
                                                        + ["https://127.0.0.1:\(proxy.port)\(path)"])
            return Int(result.output) ?? 0
        }
        let bearer = ["-H", "Authorization: Bearer \(token)"]
        #expect(try curl(SyncPath.health, from: "127.0.0.2") == 200)
        #expect(try curl(SyncPath.changes, from: "127.0.0.2", bearer) == 200)
        let body = #"{"title":"Through nginx","body":"B"}"#
        #expect(try curl(SyncPath.article("a1"), from: "127.0.0.2", bearer + ["-X", "PUT", "-H", "If-None-Match: *",
                                                                                "-H", "Content-Type: application/json", "--data", body]) == 201)
        #expect(server.log.contains("PUT /v1/articles/a1 201") && server.log.contains("client=127.0.0.2"))

        // A client that lies in X-Forwarded-For is still known by the address nginx saw: its
        // failed guesses count against 127.0.0.3, and 127.0.0.2 is not locked out.
        let lie = ["-H", "X-Forwarded-For: 127.0.0.2", "-H", "Authorization: Bearer qtk_guess"]
        for _ in 0..<3 { #expect(try curl(SyncPath.changes, from: "127.0.0.3", lie) == 401) }
        #expect(try curl(SyncPath.changes, from: "127.0.0.3", lie) == 429)
        #expect(try curl(SyncPath.changes, from: "127.0.0.2", bearer) == 200)
        #expect(server.log.contains("client=127.0.0.3"))
    }
}
