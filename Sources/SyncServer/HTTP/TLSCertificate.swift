import CMicroHTTPD
import Foundation

/// A certificate chain and its private key, in PEM, for serving HTTPS through libmicrohttpd's
/// GnuTLS. Only TLS 1.3 and 1.2 are offered (`priorities`).
public struct TLSCertificate: Sendable, Hashable {
    /// The certificate, then the intermediate certificates, in PEM.
    public var chainPEM: String
    /// The private key of the first certificate, in PEM, unencrypted.
    public var privateKeyPEM: String

    /// GnuTLS' priority string: its defaults, with every protocol version but TLS 1.3 and 1.2
    /// taken out.
    static let priorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    /// A certificate from PEM text.
    public init(chainPEM: String, privateKeyPEM: String) {
        self.chainPEM = chainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Reads the two files (again, on every reload): errors name the file.
    public init(certificateFile: URL, keyFile: URL) throws {
        func read(_ file: URL, _ marker: String) throws -> String {
            let text: String
            do {
                text = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw ServerError.tls("cannot read \(file.path): \((error as NSError).localizedDescription)")
            }
            guard text.contains("-----BEGIN") && text.contains(marker) else {
                throw ServerError.tls("\(file.path) holds no PEM \(marker.lowercased())")
            }
            return text
        }
        self.init(chainPEM: try read(certificateFile, "CERTIFICATE"), privateKeyPEM: try read(keyFile, "PRIVATE KEY"))
    }

    /// Whether this libmicrohttpd was built with HTTPS (Debian's is, with GnuTLS).
    static var isSupported: Bool { MHD_is_feature_supported(.FEATURE_TLS) == MHD_Result.YES }
}
