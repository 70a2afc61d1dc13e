import Foundation
import QuireTestSupport
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
        port = try LoopbackSocket.freePort()
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
}
