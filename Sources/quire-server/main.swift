import Foundation
import SyncServer

let usage = """
    usage:
      quire-server serve [--listen HOST:PORT] [--data DIR | --postgres URL] [--threads N]
                         [--max-body-bytes N] [--max-header-bytes N] [--client-timeout SECONDS]
                         [--page-size N] [--rate-limit PER_SECOND|off] [--operation-lease DURATION]
                         [--retention DURATION] [--purge-interval DURATION]
      quire-server account add NAME [--data DIR | --postgres URL]
      quire-server account list [--data DIR | --postgres URL]
      quire-server account revoke NAME [--data DIR | --postgres URL]

    The sync server for Quire libraries. Listens on 127.0.0.1:\(ListenAddress.defaultPort) unless told otherwise; keeps
    its data in SQLite (--data, default $XDG_DATA_HOME/quire-server) or PostgreSQL (--postgres, a
    libpq URI; a password may come from PGPASSWORD or ~/.pgpass instead of the URL).
    Durations: 30d, 12h, 15m, 10s.
    """

var words = Array(CommandLine.arguments.dropFirst())
if words.isEmpty || words.contains("--help") || words.contains("-h") {
    print(usage)
    exit(words.isEmpty ? 2 : 0)
}
let verb = words.removeFirst()
var arguments = Arguments(words)
do {
    switch verb {
    case "serve": try ServeCommand.run(&arguments)
    case "account": exit(try AccountCommand.run(&arguments))
    default: throw UsageError("unknown verb '\(verb)'")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("quire-server: \(error)\n\n\(usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("quire-server: \(error)\n".utf8))
    exit(1)
}
