import CommandLineArguments
import Foundation
import Library
import Platform
import SyncClient

/// `quire account set|show|sign-out`: the library's sync account. The token goes to the Secret
/// Service keyring when one runs, otherwise to a file only the writer can read; `show` says which.
struct AccountVerb: Verb {
    static let name = "account"
    static let summary = gettext("Set, show or sign out of the library's sync account")
    static let usage = "[--library PATH] [--json] set --server URL (--token T | --token-file F|-) [--allow-insecure] [--ca-file FILE] "
        + "| show | sign-out"
    static let details = gettext("--json prints, after any of the three, one object: server (the URL, null when there is no\naccount), allowsInsecureHTTP, certificateAuthority (a path or null), and tokenStorage:\n\"secret-service\" or \"file\", with tokenFile (the path, or null). Never the token.")

    enum Action {
        case set(server: URL, token: TokenSource, allowsInsecureHTTP: Bool, certificateAuthority: URL?)
        case show
        case signOut
    }

    enum TokenSource {
        case text(String)
        case file(String)
    }

    let library: LibraryOption
    let action: Action
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        let server = try arguments.option("--server")
        let token = try arguments.option("--token")
        let tokenFile = try arguments.option("--token-file")
        let allowsInsecureHTTP = arguments.flag("--allow-insecure")
        let authority = try arguments.option("--ca-file").map { URL(fileURLWithPath: $0) }
        switch try arguments.positional(gettext("set, show or sign-out")) {
        case "set":
            guard let server else { throw .missingArgument("--server") }
            guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                throw .invalidValue(option: "--server", value: server, expected: gettext("an http or https URL"))
            }
            switch (token, tokenFile) {
            case let (token?, nil): action = .set(server: url, token: .text(token), allowsInsecureHTTP: allowsInsecureHTTP,
                                                  certificateAuthority: authority)
            case let (nil, file?): action = .set(server: url, token: .file(file), allowsInsecureHTTP: allowsInsecureHTTP,
                                                 certificateAuthority: authority)
            case (nil, nil): throw .missingArgument(gettext("--token or --token-file"))
            case (_?, _?): throw .invalidValue(option: "--token-file", value: tokenFile!, expected: gettext("given without --token"))
            }
        case let word where word == "show" || word == "sign-out":
            if let server { throw .unexpectedArgument(server) }
            if token != nil || tokenFile != nil { throw .unexpectedArgument("--token") }
            action = word == "show" ? .show : .signOut
        case let other:
            throw .invalidValue(option: "account", value: other, expected: gettext("set, show or sign-out"))
        }
    }

    func run() async throws {
        // The library's folder holds the settings; the library itself must exist.
        let library = try library.open()
        let settings = AccountSettings(libraryURL: library.url)
        switch action {
        case let .set(server, source, allowsInsecureHTTP, authority):
            let token: String
            switch source {
            case let .text(text): token = text
            case let .file(path): token = try TextInput.read(path, option: "--token-file").trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let account = SyncAccount(server: server, token: token, allowsInsecureHTTP: allowsInsecureHTTP,
                                      certificateAuthority: authority)
            let storage = try settings.save(account)
            try report(account, storage, else: String(cFormat: gettext("server %1$s; the token is kept in %2$s"), SyncWorkerConfiguration.feedName(of: server), storage))
        case .show:
            let loaded = try settings.load()
            let storage = loaded?.storage ?? settings.storage
            try report(loaded?.account, storage, else: loaded.map { String(cFormat: gettext("server %1$s; the token is kept in %2$s"), SyncWorkerConfiguration.feedName(of: $0.account.server), storage) }
                ?? String(cFormat: gettext("no sync account (tokens would be kept in %s)"), storage))
        case .signOut:
            try settings.signOut()
            try report(nil, settings.storage, else: gettext("signed out; the library keeps its articles and unsent changes"))
        }
    }

    /// The account as JSON with `--json`, else `line`.
    private func report(_ account: SyncAccount?, _ storage: TokenStorage, else line: String) throws {
        guard emitsJSON else {
            print(line)
            return
        }
        try VerbOutput.printJSON(AccountReport(account: account, storage: storage))
    }
}

/// `quire account --json`: the account without its token, and where the token is kept. Every
/// key is always there (null when it has no value), so that scripts can rely on the shape.
private struct AccountReport: Encodable {
    let account: SyncAccount?
    let storage: TokenStorage

    private enum Key: String, CodingKey {
        case server, allowsInsecureHTTP, certificateAuthority, tokenStorage, tokenFile
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(account?.server.absoluteString, forKey: .server)
        try container.encode(account?.allowsInsecureHTTP ?? false, forKey: .allowsInsecureHTTP)
        try container.encode(account?.certificateAuthority?.path, forKey: .certificateAuthority)
        switch storage {
        case .secretService:
            try container.encode("secret-service", forKey: .tokenStorage)
            try container.encodeNil(forKey: .tokenFile)
        case let .file(url):
            try container.encode("file", forKey: .tokenStorage)
            try container.encode(url.path, forKey: .tokenFile)
        }
    }
}
