import Foundation
import Synchronization

/// A TCP server on 127.0.0.1 that counts the connections it accepts and answers each with an
/// empty 404: to check that a page fetched nothing (or, as a control, that it did).
final class LoopbackServer: Sendable {
    /// The port it listens on.
    let port: UInt16
    private let socket: Int32
    private let accepted = Mutex(0)

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.socket = socket
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Connections accepted so far.
    var connections: Int { accepted.withLock { $0 } }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            accepted.withLock { $0 += 1 }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = read(client, &buffer, buffer.count)
            let answer = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            _ = answer.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
    }

    /// Stops listening.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
