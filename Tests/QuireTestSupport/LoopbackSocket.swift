import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to an ephemeral port of 127.0.0.1 (the kernel's choice), listening or not:
/// a test server's or proxy's listener, a port that refuses connections while the test holds it, or
/// (closed at once) a port no one listens on now.
public struct LoopbackSocket: Sendable {
    /// The socket; the caller closes it (``close()``).
    public let descriptor: Int32
    /// The port it is bound to.
    public let port: UInt16

    /// Binds a new socket to 127.0.0.1 on a port the kernel picks; listens with `backlog` when
    /// given (a socket bound but not listening refuses every connection).
    public init(listeningWithBacklog backlog: Int32? = nil) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackSocketError(step: "socket", code: errno) }
        if backlog != nil {
            // Only a listener: two sockets bound with SO_REUSEADDR and not listening may share a
            // port on Linux, so a socket that holds a port to refuse connections must not set it.
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let failedStep: String? = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                if bind(descriptor, pointer, length) != 0 { return "bind" }
                if let backlog, listen(descriptor, backlog) != 0 { return "listen" }
                if getsockname(descriptor, pointer, &length) != 0 { return "getsockname" }
                return nil
            }
        }
        if let failedStep {
            let code = errno
            Glibc.close(descriptor)
            throw LoopbackSocketError(step: failedStep, code: code)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    private init(descriptor: Int32, port: UInt16) {
        self.descriptor = descriptor
        self.port = port
    }

    /// The same socket on descriptor `number` (a ``ReservedDescriptor``), this descriptor closed.
    public func moved(to number: Int32) throws -> LoopbackSocket {
        try ReservedDescriptor.move(descriptor, to: number)
        return LoopbackSocket(descriptor: number, port: port)
    }

    /// A port no one listens on now, for a server or proxy the test starts on it next.
    public static func freePort() throws -> UInt16 {
        let socket = try LoopbackSocket()
        socket.close()
        return socket.port
    }

    /// Closes the socket, freeing the port.
    public func close() { Glibc.close(descriptor) }
}

/// A loopback socket the system refused, with the step and its `errno`.
public struct LoopbackSocketError: Error, CustomStringConvertible {
    /// The call that failed: `socket`, `bind`, `listen` or `getsockname`.
    public let step: String
    /// Its `errno`.
    public let code: Int32

    public var description: String { "\(step) on 127.0.0.1: \(String(cString: strerror(code)))" }
}
