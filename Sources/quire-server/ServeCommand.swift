import Dispatch
import Foundation
import Glibc
import SyncServer

/// `quire-server serve`: runs until SIGTERM or SIGINT, then shuts down gracefully.
enum ServeCommand {
    static func run(_ arguments: inout Arguments) throws -> Never {
        var configuration = ServerConfiguration()
        if let listen = try arguments.value("listen") {
            do {
                configuration.listen = try ListenAddress(parsing: listen)
            } catch {
                throw UsageError("--listen: \(error)")
            }
        }
        let location = try arguments.storageLocation()
        if let threads = try arguments.integer("threads", in: 1...256) { configuration.threads = threads }
        if let bytes = try arguments.integer("max-body-bytes", in: 1024...(1 << 30)) { configuration.maximumBodyBytes = bytes }
        if let bytes = try arguments.integer("max-header-bytes", in: 1024...(1 << 20)) { configuration.maximumHeaderBytes = bytes }
        if let seconds = try arguments.integer("client-timeout", in: 1...3600) { configuration.clientTimeoutSeconds = seconds }
        if let size = try arguments.integer("page-size", in: 1...100_000) {
            configuration.maximumPageSize = size
            configuration.defaultPageSize = min(configuration.defaultPageSize, size)
        }
        if let bytes = try arguments.integer("page-bytes", in: 1024...(1 << 30)) { configuration.maximumPageBytes = bytes }
        if let count = try arguments.integer("max-connections-per-address", in: 1...100_000) {
            configuration.maximumConnectionsPerAddress = count
        }
        if let rate = try arguments.value("rate-limit") {
            guard rate == "off" || (Double(rate).map { $0 > 0 } ?? false) else {
                throw UsageError("--rate-limit must be requests per second per account, or off")
            }
            configuration.rateLimit = Double(rate)
        }
        if let lease = try arguments.duration("operation-lease") { configuration.operationLease = lease }
        if let retention = try arguments.duration("retention") { configuration.retention = retention }
        if let interval = try arguments.duration("purge-interval") { configuration.purgeInterval = interval }
        try arguments.finish()

        let log = ServerLog.standardError
        let storage = try location.open(serving: true, connections: configuration.threads)
        let server: QuireServer
        do {
            server = try QuireServer(configuration: configuration, storage: storage, log: log)
        } catch {
            storage.close()
            throw error
        }
        log.write("serving \(location) with \(configuration.threads) threads")
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
