import Foundation
import Glibc
import SyncProtocol

/// A blocking HTTP/1.1 client over a raw loopback socket, so that tests control every byte:
/// keep-alive, oversize headers, slow sends, cut connections.
final class LoopbackClient {
    let port: UInt16
    var token: String?
    private var socket: Int32 = -1

    init(port: UInt16, token: String? = nil) {
        self.port = port
        self.token = token
    }

    deinit { disconnect() }

    /// Sends one request on the kept-alive connection (opening one when needed) and reads the
    /// answer. Throws `LoopbackError` when the connection fails or closes before a full answer.
    @discardableResult
    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil) throws -> TestResponse {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)"]
        if let token { lines.append("Authorization: Bearer \(token)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        if let body { lines.append("Content-Length: \(body.count)") }
        var bytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        bytes += body ?? []
        if socket < 0 { socket = try Self.connect(port: port) }
        do {
            try write(bytes)
            let response = try readResponse()
            if response.header("connection")?.lowercased() == "close" { disconnect() }
            return response
        } catch {
            disconnect()
            throw error
        }
    }

    /// `send` with a JSON body and `Content-Type: application/json`.
    @discardableResult
    func send<Body: Encodable>(_ method: String, _ path: String, headers: [String: String] = [:], json: Body) throws -> TestResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try send(method, path, headers: headers, body: Array(try SyncJSON.encoder().encode(json)))
    }

    /// Writes `bytes` on a fresh connection and reads an answer, or nil when the server closed
    /// the connection without one.
    func raw(_ bytes: [UInt8], thenWait pause: TimeInterval = 0, more: [UInt8] = []) throws -> TestResponse? {
        disconnect()
        socket = try Self.connect(port: port)
        defer { disconnect() }
        try write(bytes)
        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        if !more.isEmpty { try write(more) }
        do {
            return try readResponse()
        } catch LoopbackError.closed(let received) where received.isEmpty {
            return nil
        }
    }

    /// Opens a connection and writes `bytes` without reading: for requests that must be in
    /// flight while something else happens. Finish with `finish(_:)`.
    func begin(_ bytes: [UInt8]) throws {
        disconnect()
        socket = try Self.connect(port: port)
        try write(bytes)
    }

    /// Writes the rest of a request begun with `begin` and reads its answer.
    func finish(_ bytes: [UInt8]) throws -> TestResponse {
        try write(bytes)
        return try readResponse()
    }

    /// Reads until the server closes the connection and answers what arrived before the close;
    /// throws on a timeout or a reset.
    func awaitClose() throws -> [UInt8] {
        var received = buffer
        buffer = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw LoopbackError.system("recv", errno) }
            if count == 0 { return received }
            received += chunk[0..<count]
        }
    }

    /// Whether a new connection to the port is accepted (false when it is refused).
    static func connects(port: UInt16) throws -> Bool {
        do {
            close(try connect(port: port))
            return true
        } catch LoopbackError.system("connect", ECONNREFUSED) {
            return false
        }
    }

    func disconnect() {
        if socket >= 0 { close(socket) }
        socket = -1
    }

    private static func connect(port: UInt16) throws -> Int32 {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackError.system("socket", errno) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw LoopbackError.system("connect", code)
        }
        return descriptor
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw LoopbackError.system("send", errno) }
            offset += written
        }
    }

    private var buffer: [UInt8] = []

    private func readResponse() throws -> TestResponse {
        func fill() throws {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw LoopbackError.system("recv", errno) }
            if count == 0 {
                let received = buffer
                buffer = []
                throw LoopbackError.closed(received: received)
            }
            buffer += chunk[0..<count]
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == separator }
            if headerEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw LoopbackError.malformed(head[0]) }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headerEnd! + 4
        while buffer.count < bodyStart + length { try fill() }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        buffer.removeFirst(bodyStart + length)
        return TestResponse(status: status, headers: headers, body: body)
    }
}

enum LoopbackError: Error {
    case system(String, Int32)
    /// The server closed the connection; `received` is what came before.
    case closed(received: [UInt8])
    case malformed(String)
}

/// An answer as the loopback client read it.
struct TestResponse {
    var status: Int
    /// By lowercase name.
    var headers: [String: String]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try SyncJSON.decoder().decode(type, from: Data(body))
    }

    /// The body as a problem, when the answer is `application/problem+json`.
    var problem: Problem? {
        guard header("content-type") == SyncMediaType.problem else { return nil }
        return try? decode(Problem.self)
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}
