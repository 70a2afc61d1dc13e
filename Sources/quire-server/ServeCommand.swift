import Dispatch
import Foundation
import Glibc
import SyncServer

/// `quire-server serve`: runs until SIGTERM or SIGINT, then shuts down gracefully.
enum ServeCommand {
    static func run(_ arguments: inout Arguments) throws -> Never {
        let settings = try arguments.settings(ServerOption.serve)
        try arguments.finish()
        let configuration = settings.configuration

        let log = ServerLog.standardError
        let storage = try settings.storage.open(serving: true, connections: configuration.threads)
        let server: QuireServer
        do {
            server = try QuireServer(configuration: configuration, storage: storage, log: log)
        } catch {
            storage.close()
            throw error
        }
        log.write("serving \(settings.storage) with \(configuration.threads) threads")
        // The one line on standard output, for scripts and tests that asked for port 0.
        FileHandle.standardOutput.write(Data("quire-server listening on \(server.address)\n".utf8))

        signal(SIGPIPE, SIG_IGN)
        let signals = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                log.write("shutting down (signal \(number))")
                server.shutdown()
                log.write("stopped")
                exit(0)
            }
            source.resume()
            return source
        }
        withExtendedLifetime(signals) { dispatchMain() }
    }
}
