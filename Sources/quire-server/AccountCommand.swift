import CommandLineArguments
import Foundation
import SyncServer

/// `quire-server account add|list|revoke|delete` and `quire-server token add|list|revoke`, on the
/// same storage options as `serve`.
enum AccountCommand {
    static func run(_ arguments: inout VerbArguments) throws -> Int32 {
        // Options first, so that an option's value is never taken for the account name.
        let tokenName = try tokenNameOption(&arguments, "token-name")
        let confirmed = arguments.flag("--confirm")
        let settings = try arguments.settings(ServerOption.storage)
        let verb = try arguments.positional("add, list, revoke or delete")
        if verb != "add", tokenName != nil { throw CommandLineError.unexpectedArgument("--token-name") }
        if verb != "delete", confirmed { throw CommandLineError.unexpectedArgument("--confirm") }
        switch verb {
        case "add":
            let name = try arguments.positional("the account name")
            guard Account.isValidName(name) else {
                throw CommandLineError.invalidSetting("an account name is 1 to 64 characters of A-Z a-z 0-9 . _ @ -")
            }
            let storage = try open(settings, &arguments)
            defer { storage.close() }
            let token = AccountToken.generate()
            _ = try storage.addAccount(name: name, tokenHash: token.hash, tokenName: tokenName ?? "default", at: Date())
            FileHandle.standardError.write(Data("account \(name) added; its token '\(tokenName ?? "default")' (shown only now):\n".utf8))
            print(token.text)
            return 0
        case "list":
            let storage = try open(settings, &arguments)
            defer { storage.close() }
            for account in try storage.accounts() {
                let state = account.revokedAt.map { "revoked \(format($0))" } ?? "active"
                print("\(account.name)\t\(state)\tcreated \(format(account.createdAt))")
            }
            return 0
        case "revoke":
            let name = try arguments.positional("the account name")
            let storage = try open(settings, &arguments)
            defer { storage.close() }
            guard try storage.revokeAccount(name: name, at: Date()) else {
                FileHandle.standardError.write(Data("quire-server: no active account named '\(name)'\n".utf8))
                return 1
            }
            print("account \(name) revoked: none of its tokens works any more; its articles stay")
            return 0
        case "delete":
            let name = try arguments.positional("the account name")
            let storage = try open(settings, &arguments)
            defer { storage.close() }
            guard confirmed else {
                FileHandle.standardError.write(Data(("quire-server: account delete removes '\(name)' and all its articles, "
                    + "revisions and tokens for good; run it again with --confirm to do it\n").utf8))
                return 1
            }
            guard let removed = try storage.deleteAccount(name: name) else {
                FileHandle.standardError.write(Data("quire-server: no account named '\(name)'\n".utf8))
                return 1
            }
            print("account \(name) deleted: \(removed.articles) articles, \(removed.revisions) revisions and tombstones, "
                  + "\(removed.idempotencyRecords) idempotency records, \(removed.tokens) tokens, \(removed.blobs) blobs")
            return 0
        default:
            throw CommandLineError.invalidValue(option: "account", value: verb, expected: "add, list, revoke or delete")
        }
    }

    /// `quire-server token add ACCOUNT --name NAME`, `token list ACCOUNT`, `token revoke ACCOUNT NAME`.
    static func runToken(_ arguments: inout VerbArguments) throws -> Int32 {
        let tokenName = try tokenNameOption(&arguments, "name")
        let settings = try arguments.settings(ServerOption.storage)
        let verb = try arguments.positional("add, list or revoke")
        if verb != "add", tokenName != nil { throw CommandLineError.unexpectedArgument("--name") }
        switch verb {
        case "add":
            let account = try arguments.positional("the account name")
            guard let name = tokenName else { throw CommandLineError.missingArgument("--name NAME") }
            let storage = try open(settings, &arguments)
            defer { storage.close() }
            let token = AccountToken.generate()
            try storage.addToken(account: account, name: name, tokenHash: token.hash, at: Date())
            FileHandle.standardError.write(Data("token \(name) added to \(account) (shown only now):\n".utf8))
            print(token.text)
            return 0
        case "list":
            let account = try arguments.positional("the account name")
            let storage = try open(settings, &arguments)
            defer { storage.close() }
            for token in try storage.tokens(account: account) {
                let state = token.revokedAt.map { "revoked \(format($0))" } ?? "active"
                let used = token.lastUsedAt.map { "last used \(format($0))" } ?? "never used"
                print("\(token.name)\t\(state)\tcreated \(format(token.createdAt))\t\(used)")
            }
            return 0
        case "revoke":
            let account = try arguments.positional("the account name")
            let name = try arguments.positional("the token name")
            let storage = try open(settings, &arguments)
            defer { storage.close() }
            guard try storage.revokeToken(account: account, name: name, at: Date()) else {
                FileHandle.standardError.write(Data("quire-server: \(account) has no active token named '\(name)'\n".utf8))
                return 1
            }
            print("token \(name) of \(account) revoked; the account's other tokens keep working")
            return 0
        default:
            throw CommandLineError.invalidValue(option: "token", value: verb, expected: "add, list or revoke")
        }
    }

    /// A token name after `--option`: 1 to 64 characters, as account names.
    private static func tokenNameOption(_ arguments: inout VerbArguments, _ option: String) throws -> String? {
        guard let name = try arguments.option("--\(option)") else { return nil }
        guard Account.isValidName(name) else {
            throw CommandLineError.invalidSetting("a token name is 1 to 64 characters of A-Z a-z 0-9 . _ @ -")
        }
        return name
    }

    private static func format(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }

    private static func open(_ settings: ServerSettings, _ arguments: inout VerbArguments) throws -> any SyncStorage {
        try arguments.checkAllRead()
        return try settings.storage.open(connections: 1)
    }
}
