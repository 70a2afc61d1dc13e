import Foundation

/// The server a library syncs with and the account's bearer token.
public struct SyncAccount: Sendable, Hashable {
    /// The server's base URL (`https://sync.example.org`).
    public var server: URL
    /// The account's token, as `quire-server account add` printed it.
    public var token: String

    /// An account on `server`.
    public init(server: URL, token: String) {
        self.server = server
        self.token = token
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
        case let .tokenRefused(detail):
            return "the server refused the account's token; sign in again" + (detail.map { " (\($0))" } ?? "")
        }
    }
}
