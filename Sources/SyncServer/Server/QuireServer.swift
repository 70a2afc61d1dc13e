import Foundation

/// A running sync server: the HTTP daemon, the service behind it, and the periodic purge.
///
///     let storage = try StorageLocation.sqlite(directory: folder).open(serving: true)
///     let server = try QuireServer(configuration: configuration, storage: storage, log: .standardError)
///     print("listening on \(server.address)")
///     // … on SIGTERM:
///     server.shutdown()
public final class QuireServer: Sendable {
    /// The address it listens on, with the port it got when the configuration asked for port 0.
    public let address: ListenAddress
    private let daemon: HTTPDaemon
    private let storage: any SyncStorage
    private let configuration: ServerConfiguration
    private let log: ServerLog
    private let purgeTimer: PurgeTimer?

    /// Binds the listen address and starts serving at once.
    public init(configuration: ServerConfiguration, storage: any SyncStorage, log: ServerLog) throws {
        let (socket, port) = try configuration.listen.bind(backlog: 128)
        let service = SyncService(storage: storage, configuration: configuration, log: log)
        do {
            daemon = try HTTPDaemon(
                configuration: HTTPDaemon.Configuration(
                    listenSocket: socket, threads: configuration.threads,
                    connectionTimeoutSeconds: configuration.clientTimeoutSeconds,
                    maximumConnections: configuration.maximumConnections,
                    maximumHeaderBytes: configuration.maximumHeaderBytes,
                    maximumBodyBytes: configuration.maximumBodyBytes),
                log: log, handler: service.respond(to:))
        } catch {
            close(socket)
            throw error
        }
        address = ListenAddress(host: configuration.listen.host, port: port)
        self.storage = storage
        self.configuration = configuration
        self.log = log
        if configuration.purgeInterval > 0 {
            purgeTimer = PurgeTimer(interval: configuration.purgeInterval) { [storage, configuration, log] in
                Self.purge(storage, retention: configuration.retention, log: log)
            }
        } else {
            purgeTimer = nil
        }
    }

    /// Requests being answered right now.
    var requestsInFlight: Int { daemon.requestsInFlight }

    /// Waits until the number of requests in flight is in `range`; false if `timeout` passed first.
    func awaitRequestsInFlight(_ range: ClosedRange<Int>, timeout: TimeInterval = 60) -> Bool {
        daemon.awaitRequestsInFlight(range, timeout: timeout)
    }

    /// Stops accepting connections, closes those between requests, waits for requests that
    /// started (up to the configured grace), stops the threads and closes the storage. Every
    /// write answered with 2xx was committed before its answer was sent, so none is lost.
    public func shutdown() {
        purgeTimer?.cancel()
        daemon.shutdown(grace: configuration.shutdownGrace)
        storage.close()
    }

    /// Removes tombstones, superseded revisions and idempotency records older than `retention`.
    static func purge(_ storage: any SyncStorage, retention: TimeInterval, log: ServerLog) {
        do {
            let report = try storage.purge(before: Date() - retention)
            log.write("purge: \(report.tombstones) tombstones, \(report.supersededRevisions) superseded revisions, "
                      + "\(report.operations) idempotency records")
        } catch {
            log.write("error: purge: \(error)")
        }
    }
}

/// Runs the purge every interval on a queue of its own until cancelled.
///
/// `@unchecked Sendable`: a dispatch source may be cancelled from any thread.
private final class PurgeTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer

    init(interval: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "quire-server.purge"))
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.setEventHandler(handler: work)
        source.resume()
    }

    func cancel() { source.cancel() }
}
