import Foundation
import Glibc

/// Debian's nginx, started by a test on a free loopback port with TLS from `TestCertificates`,
/// passing to `upstreams` with the project's proxy settings (`data/nginx/quire-proxy.conf`).
final class ReverseProxy {
    let port: UInt16
    let folder: URL
    private let process = Process()

    /// The `quire-proxy.conf` every deployment includes.
    static var proxySettings: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../data/nginx/quire-proxy.conf")
            .standardized
    }

    init(upstreams: [UInt16], certificates: TestCertificates) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        let path = folder.path
        let servers = upstreams.map { "server 127.0.0.1:\($0) max_fails=1 fail_timeout=30s;" }.joined(separator: "\n        ")
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log warn;
            events { worker_connections 512; }
            http {
                access_log \(path)/access.log;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                upstream quire_server {
                    \(servers)
                    keepalive 16;
                }
                server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(certificates.certificate().path);
                    ssl_certificate_key \(certificates.key().path);
                    ssl_protocols TLSv1.2 TLSv1.3;
                    location / {
                        include \(Self.proxySettings.path);
                    }
                }
            }
            """
        let file = folder.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", path, "-c", file.path, "-e", "\(path)/error.log"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when it accepts connections (or gone, with its reason in the error log).
        let deadline = Date() + 30
        while !(try LoopbackClient.connects(port: port)) {
            guard process.isRunning, Date() < deadline else {
                let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                stop()
                throw ProcessError("nginx did not start: \(log)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit { stop() }

    /// Stops nginx (SIGQUIT: it finishes its requests) and removes its folder.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A port no one listens on now (the kernel's choice for port 0).
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw ProcessError("no free port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}
