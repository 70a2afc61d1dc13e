import Foundation

/// The server a library syncs with and the account's bearer token.
public struct SyncAccount: Sendable, Hashable {
    /// The server's base URL (`https://sync.example.org`).
    public var server: URL
    /// The account's token, as `quire-server account add` printed it.
    public var token: String
    /// Whether the writer allowed `http://` to a server that is not on this computer.
    public var allowsInsecureHTTP: Bool
    /// A PEM file of certificate authorities to trust for this server (a self-signed one),
    /// instead of the system's.
    public var certificateAuthority: URL?

    /// An account on `server`.
    public init(server: URL, token: String, allowsInsecureHTTP: Bool = false, certificateAuthority: URL? = nil) {
        self.server = server
        self.token = token
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.certificateAuthority = certificateAuthority
    }

    /// Why syncing with `server` would be unsafe, or nil: `http://` to a host that is not this
    /// computer carries the token and every article in the clear, for anyone on the way to read
    /// or change. Loopback (`127.0.0.0/8`, `::1`, `localhost`) is safe: nothing leaves the computer.
    public static func insecurity(of server: URL) -> String? {
        guard server.scheme?.lowercased() == "http", let host = server.host?.lowercased() else { return nil }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" || bare.hasPrefix("127.") { return nil }
        return "\(server.absoluteString) uses http:// to another computer: your token and your articles would cross the "
            + "network unencrypted, readable and changeable on the way. Use https://, or allow http:// for this server "
            + "explicitly (quire sync --allow-insecure, or Allow Unencrypted HTTP in Preferences)"
    }

    /// Checks what can be checked before connecting: an http(s) URL with a host, no unencrypted
    /// HTTP to another computer unless allowed, a CA file that can be read.
    public func check() throws(AccountError) {
        guard let scheme = server.scheme?.lowercased(), scheme == "http" || scheme == "https", server.host != nil else {
            throw .invalidServer(server.absoluteString)
        }
        if !allowsInsecureHTTP, let insecurity = Self.insecurity(of: server) { throw .insecureServer(insecurity) }
        if let certificateAuthority {
            guard let text = try? String(contentsOf: certificateAuthority, encoding: .utf8), text.contains("BEGIN CERTIFICATE") else {
                throw .certificateAuthority(path: certificateAuthority.path)
            }
        }
    }
}

/// Where the token is kept, which the preferences tell the writer.
public enum TokenStorage: Sendable, Hashable, CustomStringConvertible {
    /// In the Secret Service keyring (GNOME Keyring, KeePassXC, …) through libsecret.
    case secretService
    /// In a file only the writer can read (mode 0600) next to the library, because no Secret
    /// Service is running.
    case file(URL)

    /// "the Secret Service keyring" or "the file PATH (readable only by you)".
    public var description: String {
        switch self {
        case .secretService: return "the Secret Service keyring"
        case let .file(url): return "the file \(url.path) (readable only by you)"
        }
    }
}

/// Why the account settings could not be read or written.
public enum AccountError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Secret Service failed a call.
    case keyring(operation: String, message: String)
    /// The Secret Service did not answer in time.
    case keyringTimedOut(operation: String, seconds: Double)
    /// The settings file could not be read or written.
    case settingsFile(path: String, reason: String)
    /// The settings file holds something else than account settings.
    case invalidSettings(path: String, reason: String)
    /// The server URL is not an http(s) URL.
    case invalidServer(String)
    /// The settings name the Secret Service, but the token is no longer in it.
    case tokenMissing(server: String)
    /// `http://` to another computer, not allowed; the text says why and what to do.
    case insecureServer(String)
    /// The CA file cannot be read, or holds no PEM certificate.
    case certificateAuthority(path: String)
    /// The server refused the token (401): unknown or revoked. The writer must sign in again.
    case tokenRefused(detail: String?)

    public var description: String {
        switch self {
        case let .keyring(operation, message): return "the Secret Service failed to \(operation): \(message)"
        case let .keyringTimedOut(operation, seconds):
            return "the Secret Service did not \(operation) within \(seconds.formatted()) seconds"
        case let .settingsFile(path, reason): return "\(path): \(reason)"
        case let .invalidSettings(path, reason): return "\(path) is not valid account settings: \(reason)"
        case let .invalidServer(text): return "'\(text)' is not an http or https URL"
        case let .tokenMissing(server): return "the token for \(server) is no longer in the Secret Service keyring; sign in again"
        case let .insecureServer(explanation): return explanation
        case let .certificateAuthority(path):
            return "the certificate authority file \(path) cannot be read or holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        case let .tokenRefused(detail):
            return "the server refused the account's token; sign in again" + (detail.map { " (\($0))" } ?? "")
        }
    }
}
