import Foundation
import Synchronization

/// What `/metrics` reports, in Prometheus' text format (version 0.0.4): requests by route, method
/// and status, their latency, storage errors, open connections, requests in flight, and how long
/// changes wait in the feed before a client pulls them.
///
/// Labels come from a fixed set (route templates, methods the routes take, statuses), never from
/// what a client sent, so the number of series stays small whatever the traffic.
final class Metrics: Sendable {
    /// Latency buckets, in seconds.
    static let latencyBounds: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// Feed delivery lag buckets, in seconds: from a pull at once to a device offline for a week.
    static let lagBounds: [Double] = [0.1, 1, 10, 60, 600, 3600, 86400, 604_800]

    private struct RequestKey: Hashable, Comparable {
        var route: String
        var method: String
        var status: Int

        static func < (lhs: RequestKey, rhs: RequestKey) -> Bool {
            (lhs.route, lhs.method, lhs.status) < (rhs.route, rhs.method, rhs.status)
        }
    }

    private struct Histogram {
        var buckets: [Int]
        var sum = 0.0
        var count = 0

        init(bounds: [Double]) { buckets = Array(repeating: 0, count: bounds.count) }

        mutating func observe(_ value: Double, bounds: [Double]) {
            for (index, bound) in bounds.enumerated() where value <= bound { buckets[index] += 1 }
            sum += value
            count += 1
        }
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var latency: [String: Histogram] = [:]
        var storageErrors: [Bool: Int] = [:]
        var feedLag = Histogram(bounds: Metrics.lagBounds)
    }

    private let state = Mutex(State())
    private let started = Date()

    /// A request was answered: `route` is its template, or "none" for one refused before routing.
    func observeRequest(route: String, method: String, status: Int, seconds: Double) {
        let method = ["GET", "HEAD", "PUT", "DELETE"].contains(method) ? method : "other"
        state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            state.latency[route, default: Histogram(bounds: Self.latencyBounds)].observe(seconds, bounds: Self.latencyBounds)
        }
    }

    /// A storage call failed; `transient` when trying again may succeed (503), else 500.
    func observeStorageError(transient: Bool) {
        state.withLock { $0.storageErrors[transient, default: 0] += 1 }
    }

    /// A client pulled a change `seconds` after it was committed.
    func observeFeedLag(seconds: Double) {
        state.withLock { $0.feedLag.observe(max(0, seconds), bounds: Self.lagBounds) }
    }

    /// The text `/metrics` answers; `connections` and `inFlight` are read at the time.
    func exposition(connections: Int, inFlight: Int) -> String {
        let state = state.withLock { $0 }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String) {
            lines += ["# HELP \(name) \(help)", "# TYPE \(name) \(type)"]
        }
        func histogram(_ name: String, _ labels: String, _ histogram: Histogram, _ bounds: [Double]) {
            let separator = labels.isEmpty ? "" : ","
            for (bound, count) in zip(bounds, histogram.buckets) {
                lines.append("\(name)_bucket{\(labels)\(separator)le=\"\(Self.number(bound))\"} \(count)")
            }
            lines.append("\(name)_bucket{\(labels)\(separator)le=\"+Inf\"} \(histogram.count)")
            let braces = labels.isEmpty ? "" : "{\(labels)}"
            lines.append("\(name)_sum\(braces) \(Self.number(histogram.sum))")
            lines.append("\(name)_count\(braces) \(histogram.count)")
        }
        family("quire_requests_total", "counter", "Requests answered, by route template, method and status.")
        for (key, count) in state.requests.sorted(by: { $0.key < $1.key }) {
            lines.append("quire_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)")
        }
        family("quire_request_duration_seconds", "histogram", "Time from a request's headers to its answer, by route.")
        for (route, latency) in state.latency.sorted(by: { $0.key < $1.key }) {
            histogram("quire_request_duration_seconds", "route=\"\(route)\"", latency, Self.latencyBounds)
        }
        family("quire_storage_errors_total", "counter", "Storage calls that failed: transient (answered 503) or not (500).")
        for transient in [true, false] {
            lines.append("quire_storage_errors_total{kind=\"\(transient ? "transient" : "other")\"} \(state.storageErrors[transient] ?? 0)")
        }
        family("quire_open_connections", "gauge", "HTTP connections open now.")
        lines.append("quire_open_connections \(connections)")
        family("quire_requests_in_flight", "gauge", "Requests whose headers were read and whose answers were not yet sent.")
        lines.append("quire_requests_in_flight \(inFlight)")
        family("quire_feed_lag_seconds", "histogram", "How long changes waited after their commit until a client pulled them.")
        histogram("quire_feed_lag_seconds", "", state.feedLag, Self.lagBounds)
        family("quire_start_time_seconds", "gauge", "When the server started, in seconds since 1970.")
        lines.append("quire_start_time_seconds \(Self.number(started.timeIntervalSince1970))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A number as Prometheus reads it: no exponent for the bounds used here.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
