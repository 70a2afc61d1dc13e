import Foundation
import Glibc
import SyncServer

/// `quire-server serve`: runs until SIGTERM or SIGINT, then shuts down gracefully.
enum ServeCommand {
    static func run(_ arguments: inout Arguments) throws -> Never {
        // The signals are blocked in every thread (those started from now on inherit the mask)
        // and taken by `sigwait` below: one that arrives while the server starts is kept pending
        // rather than ignored or lost, whatever the moment.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGTERM, SIGINT] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_BLOCK, &handled, nil)
        signal(SIGPIPE, SIG_IGN)

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

        var number: Int32 = 0
        while sigwait(&handled, &number) != 0 {}
        log.write("shutting down (signal \(number))")
        server.shutdown()
        log.write("stopped")
        exit(0)
    }
}
