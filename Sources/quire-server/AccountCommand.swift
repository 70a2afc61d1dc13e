import Foundation
import SyncServer

/// `quire-server account add|list|revoke`, on the same storage options as `serve`.
enum AccountCommand {
    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let verb = try arguments.positional("add, list or revoke")
        switch verb {
        case "add":
            let name = try arguments.positional("the account name")
            guard Account.isValidName(name) else {
                throw UsageError("an account name is 1 to 64 characters of A-Z a-z 0-9 . _ @ -")
            }
            let storage = try open(&arguments)
            defer { storage.close() }
            let token = AccountToken.generate()
            _ = try storage.addAccount(name: name, tokenHash: token.hash, at: Date())
            FileHandle.standardError.write(Data("account \(name) added; its token (shown only now):\n".utf8))
            print(token.text)
            return 0
        case "list":
            let storage = try open(&arguments)
            defer { storage.close() }
            let format = Date.ISO8601FormatStyle()
            for account in try storage.accounts() {
                let state = account.revokedAt.map { "revoked \($0.formatted(format))" } ?? "active"
                print("\(account.name)\t\(state)\tcreated \(account.createdAt.formatted(format))")
            }
            return 0
        case "revoke":
            let name = try arguments.positional("the account name")
            let storage = try open(&arguments)
            defer { storage.close() }
            guard try storage.revokeAccount(name: name, at: Date()) else {
                FileHandle.standardError.write(Data("quire-server: no active account named '\(name)'\n".utf8))
                return 1
            }
            print("account \(name) revoked; its articles stay")
            return 0
        default:
            throw UsageError("unknown account verb '\(verb)'")
        }
    }

    private static func open(_ arguments: inout Arguments) throws -> any SyncStorage {
        let settings = try arguments.settings(ServerOption.storage)
        try arguments.finish()
        return try settings.storage.open(connections: 1)
    }
}
