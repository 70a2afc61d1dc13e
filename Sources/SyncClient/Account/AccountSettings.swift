import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Platform

/// A library's sync account: the server URL in a settings file next to the library, and the token
/// in the Secret Service keyring when one runs, otherwise in that same file, which only the writer
/// can read (mode 0600). ``storage`` tells the preferences which one holds the token.
///
///     let settings = AccountSettings(libraryURL: library.url)
///     let storage = try settings.save(SyncAccount(server: url, token: token))
///     if let (account, storage) = try settings.load() { ... }
///     try settings.signOut()        // the token and the server are forgotten; the library stays
public struct AccountSettings: Sendable {
    /// The library the account belongs to.
    public let libraryURL: URL
    /// The keyring, when a Secret Service runs.
    let keyring: SecretServiceKeyring?

    /// The settings of the library at `libraryURL`; `keyring` defaults to the Secret Service when
    /// one answers on the session bus.
    public init(libraryURL: URL, keyring: SecretServiceKeyring? = SecretServiceKeyring.detect()) {
        self.libraryURL = libraryURL.standardizedFileURL
        self.keyring = keyring
    }

    /// The settings file: `library.quire.sync-account` beside `library.quire`.
    public var fileURL: URL { libraryURL.deletingLastPathComponent().appendingPathComponent(libraryURL.lastPathComponent + ".sync-account") }

    /// Where a token saved now would be kept.
    public var storage: TokenStorage { keyring == nil ? .file(fileURL) : .secretService }

    /// The saved account and where its token is, or nil when the library has none.
    public func load() throws -> (account: SyncAccount, storage: TokenStorage)? {
        guard let settings = try readFile() else { return nil }
        guard let server = URL(string: settings.server) else {
            throw AccountError.invalidSettings(path: fileURL.path, reason: "the server is not a URL")
        }
        func account(_ token: String) -> SyncAccount {
            SyncAccount(server: server, token: token, allowsInsecureHTTP: settings.allowsInsecureHTTP ?? false,
                        certificateAuthority: settings.certificateAuthority.map { URL(fileURLWithPath: $0) })
        }
        if let token = settings.token { return (account(token), .file(fileURL)) }
        guard let keyring else {
            throw AccountError.keyring(operation: "look the token up", message: "no Secret Service is running now")
        }
        guard let token = try keyring.lookup(library: libraryURL.path, server: settings.server) else {
            throw AccountError.tokenMissing(server: settings.server)
        }
        return (account(token), .secretService)
    }

    /// Saves the account, the token in the keyring when one runs (in the file otherwise, or when
    /// the keyring fails); answers where the token went. An account that `SyncAccount.check`
    /// refuses (unencrypted HTTP to another computer not allowed, an unreadable CA file) is not saved.
    @discardableResult
    public func save(_ account: SyncAccount) throws -> TokenStorage {
        try account.check()
        let extra = (insecure: account.allowsInsecureHTTP ? true : nil, authority: account.certificateAuthority?.path)
        let server = SyncWorkerConfiguration.feedName(of: account.server)
        if let previous = try? readFile(), previous.token == nil, previous.server != server {
            try? keyring?.clear(library: libraryURL.path, server: previous.server)
        }
        if let keyring {
            do {
                try keyring.store(account.token, library: libraryURL.path, server: server)
                try writeFile(Settings(server: server, token: nil, allowsInsecureHTTP: extra.insecure,
                                       certificateAuthority: extra.authority))
                return .secretService
            } catch let error as AccountError {
                // A keyring that is locked or broken must not keep the writer from syncing.
                FileHandle.standardError.write(Data("quire: \(error); keeping the token in \(fileURL.path) instead\n".utf8))
            }
        }
        try writeFile(Settings(server: server, token: account.token, allowsInsecureHTTP: extra.insecure,
                               certificateAuthority: extra.authority))
        return .file(fileURL)
    }

    /// Forgets the account: the token (keyring or file) and the settings file. The library and its
    /// outbox stay as they are; the next sign-in sends what waits.
    public func signOut() throws {
        if let settings = try readFile(), settings.token == nil {
            try keyring?.clear(library: libraryURL.path, server: settings.server)
        }
        do {
            try FileManager.default.removeItem(at: fileURL)
        } catch CocoaError.fileNoSuchFile {
        } catch {
            throw AccountError.settingsFile(path: fileURL.path, reason: "cannot be removed: \(error.localizedDescription)")
        }
    }

    // MARK: The file

    private struct Settings: Codable {
        var server: String
        /// The token, when no keyring holds it.
        var token: String?
        /// Present (true) when the writer allowed http:// to another computer.
        var allowsInsecureHTTP: Bool?
        /// The CA file to trust, by path.
        var certificateAuthority: String?
    }

    private func readFile() throws -> Settings? {
        let path = fileURL.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw AccountError.settingsFile(path: path, reason: String(cString: strerror(errno)))
        }
        // A token file others can read is tightened before it is used.
        if info.st_mode & 0o077 != 0, chmod(path, 0o600) != 0 {
            throw AccountError.settingsFile(path: path, reason: "is readable by others and cannot be made private: \(String(cString: strerror(errno)))")
        }
        do {
            return try JSONDecoder().decode(Settings.self, from: Data(contentsOf: fileURL))
        } catch let error as DecodingError {
            throw AccountError.invalidSettings(path: path, reason: "\(error)")
        } catch {
            throw AccountError.settingsFile(path: path, reason: error.localizedDescription)
        }
    }

    /// Writes the settings with mode 0600 from the start (never readable by others, not even
    /// briefly), durably: a crash leaves the old settings or the new ones.
    private func writeFile(_ settings: Settings) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = try encoder.encode(settings) + Data("\n".utf8)
        do {
            try DurableFile.write(data, to: fileURL.path, mode: 0o600)
        } catch {
            throw AccountError.settingsFile(path: error.path, reason: String(cString: strerror(error.code)))
        }
    }
}
