import Foundation

/// What `FaultProxy` does to one request on its way to the server and back.
enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// Passes the request and its answer through.
    case none
    /// Reads the whole request, then closes the connection: the server never sees it.
    case dropRequest
    /// Passes the request to the server, reads its answer, then closes the connection without
    /// answering: the server applied the write, the client never learns it.
    case dropResponse
    /// Sends a copy to the server first and waits for its answer, then the request itself: the
    /// client gets the answer to the second one (a replay).
    case duplicateRequest
    /// Sends the request and a copy at the same time; the client gets the request's answer,
    /// which may be 409 while the copy runs.
    case concurrentDuplicate
    /// Holds the request this long (past the client's timeout), then passes it on: the server
    /// applies it after the client gave up.
    case delay(TimeInterval)
    /// Holds the request until the test calls `FaultProxy.releaseHeldRequests()` (or stops the
    /// proxy), then passes it on: "on the wire" for as long as the test needs, however loaded
    /// the machine is.
    case hold
    /// Answers itself with this status, a problem body and `Retry-After`, and closes.
    case answer(status: Int, retryAfter: String?)
    /// Passes the head and half the body to the server, then closes both connections.
    case cutRequestMidBody
    /// Passes the request on, then gives the client the answer's head and half its body, and
    /// closes.
    case cutResponseMidBody
    /// Answers with these bytes and closes (hostile or broken servers).
    case raw([UInt8])

    var description: String {
        switch self {
        case .none: return "none"
        case .dropRequest: return "dropRequest"
        case .dropResponse: return "dropResponse"
        case .duplicateRequest: return "duplicateRequest"
        case .concurrentDuplicate: return "concurrentDuplicate"
        case let .delay(seconds): return "delay(\(seconds))"
        case .hold: return "hold"
        case let .answer(status, retryAfter): return "answer(\(status), Retry-After: \(retryAfter ?? "none"))"
        case .cutRequestMidBody: return "cutRequestMidBody"
        case .cutResponseMidBody: return "cutResponseMidBody"
        case let .raw(bytes): return "raw(\(bytes.count) bytes)"
        }
    }

    /// A raw answer with `status`, `headers` and `body`, closing the connection.
    static func raw(status: Int, headers: [String: String] = [:], body: String) -> Fault {
        rawBytes(status: status, headers: headers, body: Array(body.utf8))
    }

    static func rawBytes(status: Int, headers: [String: String] = [:], body: [UInt8]) -> Fault {
        var lines = ["HTTP/1.1 \(status) Status", "Content-Length: \(body.count)", "Connection: close"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        return .raw(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body)
    }
}
