import CommandLineArguments
import Foundation
import SyncServer

/// `quire-server check-config`: reads the configuration as `serve` would, opens the storage, and
/// prints every setting in the configuration file's form, so that a mistake shows before the
/// service is started. Exits 0 when `serve` would start with it.
enum CheckConfigCommand {
    static func run(_ arguments: inout VerbArguments) throws -> Int32 {
        let settings = try arguments.settings(ServerOption.serve)
        try arguments.checkAllRead()
        // Opening creates a missing SQLite folder and the tables, as `serve` would.
        if let files = settings.configuration.tlsFiles {
            _ = try TLSCertificate(certificateFile: files.certificate, keyFile: files.key)
        }
        let storage = try settings.storage.open(connections: 1)
        defer { storage.close() }
        try storage.checkHealth()
        for option in ServerOption.serve {
            if let value = option.show(settings) { print("\(option.name) = \(value)") }
        }
        FileHandle.standardError.write(Data("quire-server: the configuration is valid; storage: \(settings.storage)\n".utf8))
        return 0
    }
}
