import Foundation
import QuireTestSupport
import Synchronization

/// A TCP server on 127.0.0.1 that counts the connections it accepts and answers each with an
/// empty 404: to check that a page fetched nothing (or, as a control, that it did).
final class LoopbackServer: Sendable {
    /// The port it listens on.
    let port: UInt16
    private let socket: Int32
    private let accepted = Mutex(0)

    init() throws {
        let listener = try LoopbackSocket(listeningWithBacklog: 16)
        socket = listener.descriptor
        port = listener.port
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
