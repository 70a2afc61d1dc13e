import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// `/metrics` in Prometheus' text format: on a separate address, or on the sync address behind
/// a token; never for anyone else.
@Suite struct MetricsTests {
    /// Every sample line of `text` by its name and labels, with its value.
    func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { samples[String(parts[0])] = value }
        }
        return samples
    }

    @Test func aSeparateAddressServesMetricsOfTheSyncAddress() throws {
        let server = try TestServer { $0.metricsListen = ListenAddress(host: "127.0.0.1", port: 0) }
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        try client.create("a1", ArticlePayload(title: "T", body: "B"))
        for _ in 0..<3 { try client.send("GET", SyncPath.changes + "?since=0") }
        try client.send("GET", SyncPath.article("missing"))
        try server.client("qtk_wrong").send("GET", SyncPath.changes)

        // A client reads its answer before libmicrohttpd reports the answer sent, so the last
        // request may count as in flight for a moment: wait for the daemon to know (a gauge that
        // never returns to 0 fails here).
        try #require(server.server.awaitRequestsInFlight(0...0))
        let port = try #require(server.server.metricsAddress?.port)
        let scrape = try LoopbackClient(port: port).send("GET", "/metrics")
        #expect(scrape.status == 200 && scrape.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
        // Every line is a comment or a sample, as the format has them.
        let pattern = try Regex(#"^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? -?[0-9.e+]+)$"#)
        for line in scrape.text.split(separator: "\n") { #expect(line.wholeMatch(of: pattern) != nil, "\(line)") }
        let values = samples(scrape.text)
        #expect(values[#"quire_requests_total{route="/v1/changes",method="GET",status="200"}"#] == 3)
        #expect(values[#"quire_requests_total{route="/v1/articles/{id}",method="PUT",status="201"}"#] == 1)
        #expect(values[#"quire_requests_total{route="/v1/articles/{id}",method="GET",status="404"}"#] == 1)
        #expect(values[#"quire_requests_total{route="/v1/changes",method="GET",status="401"}"#] == 1)
        #expect(values[#"quire_request_duration_seconds_count{route="/v1/changes"}"#] == 4)
        #expect(values[#"quire_request_duration_seconds_bucket{route="/v1/changes",le="+Inf"}"#] == 4)
        #expect(values[#"quire_storage_errors_total{kind="transient"}"#] == 0)
        #expect(values["quire_feed_lag_seconds_count"] == 3)
        // Alice's kept-alive connection (the others were closed when their clients went).
        #expect((values["quire_open_connections"] ?? 0) >= 1)
        #expect(values["quire_requests_in_flight"] == 0)

        // Only /metrics is served there; and the sync address has no /metrics without a token.
        #expect(try LoopbackClient(port: port).send("GET", SyncPath.changes).status == 404)
        #expect(try LoopbackClient(port: port).send("POST", "/metrics", body: []).status == 405)
        #expect(try client.send("GET", "/metrics").status == 404)
    }

    @Test func theSyncAddressServesMetricsOnlyForTheMetricsToken() throws {
        let token = "metrics-" + UUID().uuidString
        let server = try TestServer { $0.metricsToken = token }
        defer { server.stop() }
        let alice = try server.addAccount("alice")
        #expect(try server.client(alice).send("GET", "/metrics").status == 401)
        #expect(try server.client(nil).send("GET", "/metrics").status == 401)
        let scrape = try server.client(token).send("GET", "/metrics")
        #expect(scrape.status == 200 && scrape.text.contains("quire_requests_total{route=\"/metrics\",method=\"GET\",status=\"401\"} 2"))
        #expect(try server.client(nil).send("GET", SyncPath.health).status == 200)
    }
}
