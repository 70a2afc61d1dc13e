import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// Plain and JSON log lines, their fields, and the level that filters them.
@Suite struct LogFormatTests {
    func server(_ format: ServerLog.Format, _ level: ServerLog.Level, trusting proxies: [AddressRange] = [])
        throws -> (TestServer, LogLines) {
        let lines = LogLines()
        let server = try TestServer(log: ServerLog(format: format, level: level) { lines.append($0) }) {
            $0.trustedProxies = proxies
        }
        return (server, lines)
    }

    @Test func jsonLinesHoldOneEscapedObjectEachWithTheClientAddress() throws {
        let (server, lines) = try self.server(.json, .info, trusting: [try AddressRange(parsing: "127.0.0.1")])
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        try client.create("a1", ArticlePayload(title: "Secret title", body: "B"))
        try client.send("GET", SyncPath.changes, headers: ["X-Forwarded-For": "203.0.113.7"])
        _ = try client.raw(Array("G\u{1B}[2JET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".utf8))

        let objects = try lines.all.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let requests = objects.filter { $0["event"] as? String == "request" }
        #expect(requests.count == 3)
        let put = try #require(requests.first { $0["method"] as? String == "PUT" })
        #expect(put["path"] as? String == "/v1/articles/a1" && put["status"] as? Int == 201 && put["level"] as? String == "info")
        #expect(put["client"] as? String == "127.0.0.1" && (put["note"] as? String)?.hasPrefix("account=") == true)
        #expect(requests.contains { $0["client"] as? String == "203.0.113.7" })
        #expect(requests.contains { $0["method"] as? String == "G\\u{1B}[2JET" })
        #expect(objects.allSatisfy { $0["time"] is String })
        #expect(!lines.all.joined().contains("Secret") && !lines.all.joined().contains("\u{1B}"))
    }

    @Test func theLevelLeavesOutRequestsButKeepsWhatAnOperatorMustSee() throws {
        let (server, lines) = try self.server(.plain, .warning)
        defer { server.stop() }
        try server.client(try server.addAccount("alice")).send("GET", SyncPath.changes)
        ServerLog(format: .plain, level: .warning) { lines.append($0) }.write("a warning", level: .warning)
        ServerLog(format: .plain, level: .error) { lines.append($0) }.write("dropped", level: .warning)
        #expect(lines.all.count == 1 && lines.all[0].hasSuffix(" warning: a warning"))
    }
}
