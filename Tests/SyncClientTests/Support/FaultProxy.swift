import Foundation
import Glibc
import Synchronization
import Platform
import QuireTestSupport

/// A TCP proxy on loopback between the sync client and a server that understands just enough
/// HTTP/1.1 (heads, `Content-Length` bodies) to apply one `Fault` per request.
///
/// Faults come from a script (`script(_:)`, consumed in request order) or, once the script is
/// empty, from a seeded random choice (`randomize(seed:rate:faults:)`), so that a failing run
/// replays from its seed. Every request's start line and fault is logged.
final class FaultProxy: @unchecked Sendable {
    let port: UInt16
    private let upstreamPort: UInt16
    private let listener: Int32
    private let state = Mutex(State())
    /// Entered once at the start; `.hold` requests wait for it to be left.
    private let heldRequests = DispatchGroup()

    private struct State {
        var script: [Fault] = []
        var random: SeededGenerator?
        var rate = 0.0
        var choices: [Fault] = []
        var log: [(request: String, fault: Fault)] = []
        var connections: Set<Int32> = []
        var stopped = false
        var heldRequestsReleased = false
        var onRequest: (@Sendable (Int) -> Void)?
    }

    /// Listens on `listener` (a new ephemeral loopback port when nil) and forwards to
    /// `127.0.0.1:upstreamPort`.
    init(upstreamPort: UInt16, listener: LoopbackSocket? = nil) throws {
        self.upstreamPort = upstreamPort
        let socket = try listener ?? LoopbackSocket(listeningWithBacklog: 64)
        self.listener = socket.descriptor
        port = socket.port
        heldRequests.enter()
        Thread { [self] in acceptLoop() }.start()
    }

    /// Faults for the next requests, in order.
    func script(_ faults: [Fault]) {
        state.withLock { $0.script += faults }
    }

    /// After the script: each request gets one of `faults` with probability `rate`, chosen by a
    /// generator seeded with `seed`.
    func randomize(seed: UInt64, rate: Double, faults: [Fault]) {
        state.withLock {
            $0.random = SeededGenerator(seed: seed)
            $0.rate = rate
            $0.choices = faults
        }
    }

    /// Calls `handler` on the proxy's own thread with each request's number in the log (1 for the
    /// first since the proxy started) once the request has arrived whole, before it is passed on:
    /// a test can kill its client at an exact request, whatever its own tasks are waiting for.
    func onRequest(_ handler: (@Sendable (Int) -> Void)?) {
        state.withLock { $0.onRequest = handler }
    }

    /// Each request's start line (`PUT /v1/articles/a1`) and the fault it got, in arrival order.
    var log: [(request: String, fault: Fault)] { state.withLock { $0.log } }

    /// Lets every `.hold` request, waiting or still to come, through.
    func releaseHeldRequests() {
        let first = state.withLock { state -> Bool in
            defer { state.heldRequestsReleased = true }
            return !state.heldRequestsReleased
        }
        if first { heldRequests.leave() }
    }

    /// Closes the listener and every connection; calls after the first do nothing (a second
    /// `close` would close whatever the process opened on the listener's number since).
    func stop() {
        releaseHeldRequests()
        let isFirst = state.withLock { state -> Bool in
            defer { state.stopped = true }
            guard !state.stopped else { return false }
            // Under the lock: a connection's thread closes it only after taking it out of the set,
            // so every number here is still that connection's.
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
            return true
        }
        guard isFirst else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    // MARK: Connections

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(client)
                return true
            }
            guard admitted else {
                close(client)
                return
            }
            Thread { [self] in
                serve(client)
                state.withLock { _ = $0.connections.remove(client) }
                close(client)
            }.start()
        }
    }

    /// Serves the client's requests one after the other until the connection closes or a fault
    /// closes it.
    private func serve(_ client: Int32) {
        let reader = MessageReader(socket: client)
        while let request = try? reader.readMessage(isRequest: true) {
            let (fault, number, handler) = nextFault(for: request)
            handler?(number)
            guard apply(fault, to: request, client: client) else { return }
        }
    }

    /// The request's fault, its number in the log and the handler to tell.
    private func nextFault(for request: HTTPMessage) -> (Fault, Int, (@Sendable (Int) -> Void)?) {
        state.withLock { state in
            let fault: Fault
            if !state.script.isEmpty {
                fault = state.script.removeFirst()
            } else if var random = state.random, !state.choices.isEmpty {
                fault = Double.random(in: 0..<1, using: &random) < state.rate
                    ? state.choices.randomElement(using: &random)! : .none
                state.random = random
            } else {
                fault = .none
            }
            state.log.append((request.startLine, fault))
            return (fault, state.log.count, state.onRequest)
        }
    }

    /// Applies `fault`; answers whether the client connection stays open.
    private func apply(_ fault: Fault, to request: HTTPMessage, client: Int32) -> Bool {
        switch fault {
        case .none:
            guard let answer = forward(request.bytes) else { return false }
            return send(answer.bytes, to: client) && !answer.closes
        case .dropRequest:
            return false
        case .dropResponse:
            _ = forward(request.bytes)
            return false
        case .duplicateRequest:
            _ = forward(request.bytes)
            guard let answer = forward(request.bytes) else { return false }
            return send(answer.bytes, to: client) && !answer.closes
        case .concurrentDuplicate:
            Thread { [self] in _ = forward(request.bytes) }.start()
            guard let answer = forward(request.bytes) else { return false }
            return send(answer.bytes, to: client) && !answer.closes
        case let .delay(seconds):
            Thread.sleep(forTimeInterval: seconds)
            if let answer = forward(request.bytes) { _ = send(answer.bytes, to: client) }
            return false
        case .hold:
            heldRequests.wait()
            if let answer = forward(request.bytes) { _ = send(answer.bytes, to: client) }
            return false
        case let .answer(status, retryAfter):
            let body = #"{"type":"urn:quire:problem:\#(status == 429 ? "rateLimited" : "unavailable")","title":"Injected","status":\#(status)}"#
            var headers = ["Content-Type": "application/problem+json"]
            if let retryAfter { headers["Retry-After"] = retryAfter }
            guard case let .raw(bytes) = Fault.raw(status: status, headers: headers, body: body) else { return false }
            _ = send(bytes, to: client)
            return false
        case .cutRequestMidBody:
            let cut = request.headLength + (request.bytes.count - request.headLength) / 2
            if let upstream = connectUpstream() {
                _ = send(Array(request.bytes[..<cut]), to: upstream)
                close(upstream)
            }
            return false
        case .cutResponseMidBody:
            guard let answer = forward(request.bytes) else { return false }
            let cut = answer.headLength + max(1, (answer.bytes.count - answer.headLength) / 2)
            _ = send(Array(answer.bytes[..<min(cut, answer.bytes.count)]), to: client)
            return false
        case let .raw(bytes):
            _ = send(bytes, to: client)
            return false
        }
    }

    /// Sends `bytes` on a fresh upstream connection and reads the whole answer.
    private func forward(_ bytes: [UInt8]) -> HTTPMessage? {
        guard let upstream = connectUpstream() else { return nil }
        defer { close(upstream) }
        guard send(bytes, to: upstream) else { return nil }
        // The answer to HEAD has headers only, whatever they say of a body (RFC 9110 §9.3.2).
        let isHead = bytes.starts(with: Array("HEAD ".utf8))
        return try? MessageReader(socket: upstream).readMessage(isRequest: false, bodyless: isHead)
    }

    private func connectUpstream() -> Int32? {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard upstream >= 0 else { return nil }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(upstream, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(upstream)
            return nil
        }
        return upstream
    }

    private func send(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

struct ProxyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One HTTP/1.1 message as bytes: the head and its `Content-Length` body.
struct HTTPMessage {
    var bytes: [UInt8]
    var headLength: Int
    var startLine: String
    /// Whether the sender said `Connection: close`.
    var closes: Bool
}

/// Reads whole HTTP messages from a socket.
final class MessageReader {
    private let socket: Int32
    private var buffer: [UInt8] = []

    init(socket: Int32) { self.socket = socket }

    /// The next message; throws when the connection ends first. An answer without
    /// `Content-Length` runs to the end of the connection.
    func readMessage(isRequest: Bool, bodyless: Bool = false) throws -> HTTPMessage {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.count >= 4 ? (0...(buffer.count - 4)).first { buffer[$0..<$0 + 4].elementsEqual(separator) } : nil
            if headEnd == nil { try fill() }
        }
        let headLength = headEnd! + 4
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        var length: Int?
        var closes = false
        for line in head.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0].lowercased() {
            case "content-length": length = Int(parts[1])
            case "connection": closes = parts[1].lowercased() == "close"
            case "transfer-encoding": throw ProxyError("chunked messages are not supported")
            default: break
            }
        }
        if bodyless {
            length = 0
        }
        if let length {
            while buffer.count < headLength + length { try fill() }
        } else if !isRequest {
            while (try? fill()) != nil {}
            closes = true
        }
        let total = headLength + (length ?? (isRequest ? 0 : buffer.count - headLength))
        let message = HTTPMessage(bytes: Array(buffer[..<total]), headLength: headLength, startLine: head[0], closes: closes)
        buffer.removeFirst(total)
        return message
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw ProxyError("connection ended") }
        buffer += chunk[..<count]
    }
}
