import Foundation
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Testing

/// HTTPS through libmicrohttpd's GnuTLS, with a certificate authority made for the test: TLS 1.2
/// and 1.3 only, and the certificate read again on SIGHUP without closing the port.
@Suite(.serialized) struct TLSTests {
    /// `curl` against the server, trusting the test authority; answers its exit status, the HTTP
    /// status (0 when none) and the subject of the certificate it was shown.
    func curl(_ port: UInt16, _ certificates: TestCertificates, _ extra: [String] = [], path: String = SyncPath.health)
        throws -> (status: Int32, http: Int, subject: String?) {
        let result = try ProgramRun(URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--verbose", "--output", "/dev/null", "--write-out", "%{http_code}",
                                                    "--cacert", certificates.authority.path] + extra
                                                    + ["https://127.0.0.1:\(port)\(path)"])
        let subject = result.error.split(separator: "\n").first { $0.contains("subject:") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
        return (result.status, Int(result.output) ?? 0, subject)
    }

    @Test func onlyTLS12AndLaterAreServedAndSIGHUPReloadsTheCertificate() throws {
        let certificates = try TestCertificates(["server", "renewed"])
        defer { certificates.remove() }
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        guard case let .sqlite(directory) = database.location else { return }
        // The files the server reads, which a renewal replaces.
        let served = database.folder.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let certificate = served.appendingPathComponent("cert.pem")
        let key = served.appendingPathComponent("key.pem")
        try FileManager.default.copyItem(at: certificates.certificate(), to: certificate)
        try FileManager.default.copyItem(at: certificates.key(), to: key)
        let token = try ServerProcess.run(["account", "add", "alice", "--data", directory.path]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(serve: ["--data", directory.path, "--tls-cert", certificate.path, "--tls-key", key.path],
                                       logFile: database.folder.appendingPathComponent("server.log"))
        defer { _ = server.terminate() }

        let health = try curl(server.port, certificates)
        #expect(health.status == 0 && health.http == 200 && health.subject == "CN=server")
        #expect(try curl(server.port, certificates, ["--tls-max", "1.2"]).http == 200)
        #expect(try curl(server.port, certificates, ["--tlsv1.3"]).http == 200)
        let old = try curl(server.port, certificates, ["--tlsv1.1", "--tls-max", "1.1"])
        #expect(old.status != 0 && old.http == 0)
        #expect(try curl(server.port, certificates, ["-H", "Authorization: Bearer \(token)"], path: SyncPath.changes).http == 200)
        // Plain HTTP on the HTTPS port gets no answer.
        #expect(try LoopbackClient(port: server.port).raw(Array("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == nil)

        // A renewal: new files, then SIGHUP. New connections get the new certificate.
        try FileManager.default.removeItem(at: certificate)
        try FileManager.default.removeItem(at: key)
        try FileManager.default.copyItem(at: certificates.certificate("renewed"), to: certificate)
        try FileManager.default.copyItem(at: certificates.key("renewed"), to: key)
        server.send(SIGHUP)
        #expect(server.awaitLog("reloaded the TLS certificate"))
        let renewed = try curl(server.port, certificates)
        #expect(renewed.http == 200 && renewed.subject == "CN=renewed")

        // A key that does not belong to the certificate is refused, and the certificate in use stays.
        try FileManager.default.removeItem(at: key)
        try FileManager.default.copyItem(at: certificates.key("server"), to: key)
        server.send(SIGHUP)
        #expect(server.awaitLog("the certificate in use stays"))
        #expect(try curl(server.port, certificates).subject == "CN=renewed")
        #expect(server.terminate() == 0)
    }

    @Test func checkConfigRefusesCertificatesThatCannotServe() throws {
        let certificates = try TestCertificates(["server", "other"])
        defer { certificates.remove() }
        let data = certificates.folder.appendingPathComponent("data").path
        let mismatched = try ServerProcess.run(["check-config", "--data", data, "--tls-cert", certificates.certificate().path,
                                                "--tls-key", certificates.key("other").path])
        // The files read as PEM; libmicrohttpd refuses the pair when it starts serving.
        #expect(mismatched.status == 0)
        let serving = try? ServerProcess(serve: ["--data", data, "--tls-cert", certificates.certificate().path,
                                                 "--tls-key", certificates.key("other").path],
                                         logFile: certificates.folder.appendingPathComponent("log"))
        #expect(serving == nil)
        let alone = try ServerProcess.run(["check-config", "--data", data, "--tls-cert", certificates.certificate().path])
        #expect(alone.status == 2 && alone.error.contains("tls-cert and tls-key go together"))
        let notPEM = try ServerProcess.run(["check-config", "--data", data, "--tls-cert", certificates.key().path,
                                            "--tls-key", certificates.key().path])
        #expect(notPEM.status == 1 && notPEM.error.contains("holds no PEM certificate"))
    }
}
