import Foundation
import QuireTestSupport
import Glibc
@testable import SyncServer
import SyncProtocol
import Testing

/// What a `Type=notify` unit learns from `quire-server serve`, read from a socket of the test's
/// own in the place of systemd's (`NOTIFY_SOCKET`).
@Suite(.serialized) struct ServiceManagerTests {
    /// A datagram socket bound to a path, as systemd's notification socket is.
    final class NotificationSocket {
        let path: String
        private let descriptor: Int32

        init(in folder: URL) throws {
            path = folder.appendingPathComponent("notify").path
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                for (index, byte) in path.utf8.enumerated() where index < bytes.count - 1 { bytes[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw ProcessError("cannot bind \(path): \(String(cString: strerror(errno)))") }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        /// The next notification, or nil after 30 s without one.
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
        }
    }

    @Test func readyOnceServingReloadingOnSIGHUPAndStoppingOnSIGTERM() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let notifications = try NotificationSocket(in: certificates.folder)
        let data = certificates.folder.appendingPathComponent("data").path
        let server = try ServerProcess(
            serve: ["--data", data, "--tls-cert", certificates.certificate().path, "--tls-key", certificates.key().path],
            logFile: certificates.folder.appendingPathComponent("server.log"), environment: ["NOTIFY_SOCKET": notifications.path])

        let ready = try #require(notifications.next())
        #expect(ready.hasPrefix("READY=1\n") && ready.contains("STATUS=serving https://127.0.0.1:\(server.port)"))
        server.send(SIGHUP)
        #expect(notifications.next() == "RELOADING=1")
        #expect(notifications.next()?.hasPrefix("READY=1") == true)
        #expect(server.terminate() == 0)
        #expect(notifications.next()?.hasPrefix("STOPPING=1") == true)
    }
}
