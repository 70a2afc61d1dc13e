import CommandLineArguments
import Foundation
import SyncServer

/// `quire-server backup --out FILE` and `quire-server restore [--from FILE]`.
enum BackupCommand {
    static func backup(_ arguments: inout VerbArguments) throws -> Int32 {
        guard let out = try arguments.option("--out") else { throw CommandLineError.missingArgument("--out FILE") }
        let settings = try arguments.settings(ServerOption.storage)
        try arguments.checkAllRead()
        let storage = try settings.storage.open(connections: 1)
        defer { storage.close() }
        try storage.backup(to: URL(fileURLWithPath: out))
        FileHandle.standardError.write(Data("quire-server: backed up \(settings.storage) to \(out)\n".utf8))
        return 0
    }

    static func restore(_ arguments: inout VerbArguments) throws -> Int32 {
        let file = try arguments.option("--from").map { URL(fileURLWithPath: $0) }
        let settings = try arguments.settings(ServerOption.storage)
        try arguments.checkAllRead()
        let restored = try settings.storage.restore(from: file)
        if let file { print("restored \(file.path) into \(settings.storage)") }
        if let replaced = restored.replacedDatabase { print("the database it replaced is kept as \(replaced.path)") }
        print("new feed epoch for \(restored.accounts) accounts: each client resyncs once on its next sync")
        return 0
    }
}
