import Glibc

/// The address `serve` binds: `127.0.0.1:7740` by default, `[::1]:7740` for IPv6, port 0 for any
/// free port. Loopback unless the operator names another address.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 or IPv6 address (no brackets).
    public var host: String
    /// The TCP port; 0 asks the system for a free one.
    public var port: UInt16

    /// The port `serve` uses unless told otherwise.
    public static let defaultPort: UInt16 = 7740
    /// `127.0.0.1:7740`, the default.
    public static let loopback = ListenAddress(host: "127.0.0.1", port: defaultPort)

    /// The address `host:port`.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT`.
    public init(parsing text: String) throws {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw ServerError.invalidListenAddress(text) }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw ServerError.invalidListenAddress(text) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText), !host.isEmpty else { throw ServerError.invalidListenAddress(text) }
        self.init(host: String(host), port: port)
    }

    /// `HOST:PORT`, or `[HOST]:PORT` for IPv6.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// A listening TCP socket bound to this address, and the port it got (port 0 picks one).
    func bind(backlog: Int32) throws -> (socket: Int32, port: UInt16) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
        } else {
            throw ServerError.invalidListenAddress(description)
        }
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError.cannotListen(Self.systemError("socket")) }
        var enable: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &enable, socklen_t(MemoryLayout<Int32>.size))
        let bound = family == AF_INET
            ? withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            : withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let message = Self.systemError("bind \(description)")
            close(descriptor)
            throw ServerError.cannotListen(message)
        }
        do {
            return (descriptor, try ListenAddress(boundTo: descriptor).port)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The address a bound socket listens on, such as one systemd passed (socket activation).
    public init(boundTo descriptor: Int32) throws {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw ServerError.cannotListen(Self.systemError("getsockname")) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
            var bytes = address.sin_addr
            inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
            self.init(host: Self.string(text), port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
            var bytes = address.sin6_addr
            inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
            self.init(host: Self.string(text), port: UInt16(bigEndian: address.sin6_port))
        default:
            throw ServerError.cannotListen("the socket is not an IPv4 or IPv6 socket")
        }
    }

    /// The text of `inet_ntop`'s buffer, up to its terminating zero.
    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func systemError(_ what: String) -> String { "\(what): \(String(cString: strerror(errno)))" }
}
