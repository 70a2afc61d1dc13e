import Foundation

/// A throwaway certificate authority and server certificates for 127.0.0.1, made for one test by
/// `meson-helpers/make-test-certificates.sh` (openssl) in a temporary folder.
public struct TestCertificates: Sendable {
    /// The folder holding `ca.pem` and each name's `.pem` and `.key`.
    public let folder: URL

    /// Makes the authority and a certificate for each of `names`.
    public init(_ names: [String] = ["server"]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = BuiltProduct.packageRoot.appendingPathComponent("meson-helpers/make-test-certificates.sh")
        _ = try Tool.run(script.path, [folder.path] + names)
    }

    /// The authority's certificate, the file a client is told to trust.
    public var authority: URL { folder.appendingPathComponent("ca.pem") }
    /// The certificate of `name`, signed by the authority.
    public func certificate(_ name: String = "server") -> URL { folder.appendingPathComponent("\(name).pem") }
    /// The private key of `name`'s certificate.
    public func key(_ name: String = "server") -> URL { folder.appendingPathComponent("\(name).key") }
    /// The certificate and key of `name`, as a server takes them.
    public func files(_ name: String = "server") -> (certificate: URL, key: URL) { (certificate(name), key(name)) }

    /// Removes the folder.
    public func remove() { try? FileManager.default.removeItem(at: folder) }
}
