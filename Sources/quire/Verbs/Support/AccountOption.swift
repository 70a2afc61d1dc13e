import CommandLineArguments
import Foundation
import Library
import Platform
import SyncClient

/// `--server URL --token T`: an account given on the command line for one run; without them the
/// library's saved account (`quire account set`).
struct AccountOption: Sendable {
    let server: URL?
    let token: String?
    /// `--allow-insecure`: http:// to another computer (see `SyncAccount.insecurity`).
    let allowsInsecureHTTP: Bool
    /// `--ca-file FILE`: certificate authorities to trust for a self-signed server.
    let certificateAuthority: URL?

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        allowsInsecureHTTP = arguments.flag("--allow-insecure")
        certificateAuthority = try arguments.option("--ca-file").map { URL(fileURLWithPath: $0) }
        let server = try arguments.option("--server")
        token = try arguments.option("--token")
        switch (server, token) {
        case (nil, nil):
            self.server = nil
        case let (server?, _?):
            guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()) else {
                throw .invalidValue(option: "--server", value: server, expected: gettext("an http or https URL"))
            }
            self.server = url
        case (nil, _?):
            throw .missingArgument(gettext("--server (--token needs it)"))
        case (_?, nil):
            throw .missingArgument(gettext("--token (--server needs it)"))
        }
    }

    /// The account to sync with: the one given, or the saved one, with `--allow-insecure` and
    /// `--ca-file` on top; refused with a sentence when unsafe or unreadable (`SyncAccount.check`).
    func account(for library: Library) throws -> SyncAccount {
        var account: SyncAccount
        if let server, let token {
            account = SyncAccount(server: server, token: token)
        } else {
            guard let saved = try AccountSettings(libraryURL: library.url).load() else {
                throw AccountVerbError.noAccount(library: library.url.path)
            }
            account = saved.account
        }
        if allowsInsecureHTTP { account.allowsInsecureHTTP = true }
        if let certificateAuthority { account.certificateAuthority = certificateAuthority }
        try account.check()
        return account
    }
}

/// A verb that needs an account found none.
enum AccountVerbError: Error, CustomStringConvertible {
    case noAccount(library: String)

    var description: String {
        switch self {
        case let .noAccount(library):
            return String(cFormat: gettext("the library %s has no sync account; give --server URL --token T, or save one with 'quire account set'"), library)
        }
    }
}
