import Foundation
import SyncProtocol
import Synchronization

/// A running sync server: the HTTP daemon, the service behind it, and the periodic purge.
///
///     let storage = try StorageLocation.sqlite(directory: folder).open(serving: true)
///     let server = try QuireServer(configuration: configuration, storage: storage, log: .writing(to: LogOutput(path: nil)))
///     print("listening on \(server.address)")
///     // … on SIGTERM:
///     server.shutdown()
public final class QuireServer: Sendable {
    /// The address it listens on, with the port it got when the configuration asked for port 0.
    public let address: ListenAddress
    /// The address that serves `/metrics` alone, when configured (port resolved).
    public let metricsAddress: ListenAddress?
    private let listener: Int32
    /// The daemon serving `listener`: a certificate reload starts a new one on it.
    private let serving: DaemonSlot
    private let metricsDaemon: (daemon: HTTPDaemon, socket: Int32)?
    private let service: SyncService
    private let metrics: Metrics
    private let storage: any SyncStorage
    private let configuration: ServerConfiguration
    /// What SIGHUP may have changed since: the trusted proxies and the certificate served.
    private let live: Mutex<(trustedProxies: [AddressRange], certificate: TLSCertificate?)>
    private let log: ServerLog
    private let purgeTimer: PurgeTimer?
    /// Set by the first ``shutdown()``: its descriptors are closed once, since a second `close`
    /// would close whatever the process opened on those numbers since.
    private let isShutDown = Mutex(false)

    /// Binds the listen address (and the metrics address) and starts serving at once.
    public init(configuration: ServerConfiguration, storage: any SyncStorage, log: ServerLog) throws {
        let certificate = try configuration.tlsFiles.map { try TLSCertificate(certificateFile: $0.certificate, keyFile: $0.key) }
        let metrics = Metrics()
        // The service reads the connection counts of whichever daemon serves at the time.
        let serving = DaemonSlot()
        let exposition: @Sendable () -> String = {
            let daemon = serving.current
            return metrics.exposition(connections: daemon?.openConnections ?? 0, inFlight: daemon?.requestsInFlight ?? 0)
        }
        let service = SyncService(storage: storage, configuration: configuration, log: log, metrics: metrics,
                                  exposition: exposition)
        let (socket, listening): (Int32, ListenAddress)
        if let passed = configuration.listenSocket {
            (socket, listening) = (passed, try ListenAddress(boundTo: passed))
        } else {
            let bound = try configuration.listen.bind(backlog: 128)
            (socket, listening) = (bound.socket, ListenAddress(host: configuration.listen.host, port: bound.port))
        }
        let main: HTTPDaemon
        do {
            main = try Self.daemon(on: socket, configuration, certificate: certificate, metrics: metrics, log: log,
                                   screen: service.answerBeforeBody(of:), handler: service.respond(to:))
        } catch {
            close(socket)
            throw error
        }
        serving.replace(with: main)
        if let metricsListen = configuration.metricsListen {
            do {
                let (metricsSocket, metricsPort) = try metricsListen.bind(backlog: 16)
                var metricsConfiguration = configuration
                metricsConfiguration.threads = 1
                let metricsDaemon = try Self.daemon(on: metricsSocket, metricsConfiguration, certificate: nil, metrics: nil,
                                                    log: log) { request in
                    guard Route(request.target) == .metrics else { return .problem(.notFound("only /metrics is served here")) }
                    guard ["GET", "HEAD"].contains(request.method) else {
                        return .problem(.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]),
                                        headers: [(SyncHeader.allow, "GET, HEAD")])
                    }
                    return SyncService.metricsResponse(exposition())
                }
                self.metricsDaemon = (metricsDaemon, metricsSocket)
                metricsAddress = ListenAddress(host: metricsListen.host, port: metricsPort)
            } catch {
                main.shutdown(grace: 0)
                close(socket)
                throw error
            }
        } else {
            metricsDaemon = nil
            metricsAddress = nil
        }
        address = listening
        listener = socket
        self.serving = serving
        self.metrics = metrics
        self.service = service
        self.storage = storage
        self.configuration = configuration
        live = Mutex((configuration.trustedProxies, certificate))
        self.log = log
        if configuration.purgeInterval > 0 {
            purgeTimer = PurgeTimer(interval: configuration.purgeInterval) { [storage, configuration, log] in
                Self.purge(storage, retention: configuration.retention, blobGrace: configuration.blobGrace, log: log)
            }
        } else {
            purgeTimer = nil
        }
    }

    private static func daemon(
        on socket: Int32, _ configuration: ServerConfiguration, certificate: TLSCertificate?, metrics: Metrics?,
        log: ServerLog, screen: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws -> HTTPDaemon {
        try HTTPDaemon(
            configuration: HTTPDaemon.Configuration(
                listenSocket: socket, threads: configuration.threads,
                connectionTimeoutSeconds: configuration.clientTimeoutSeconds,
                maximumConnections: configuration.maximumConnections,
                maximumConnectionsPerAddress: configuration.maximumConnectionsPerAddress,
                trustedProxies: configuration.trustedProxies,
                maximumHeaderBytes: configuration.maximumHeaderBytes,
                maximumBodyBytes: configuration.maximumBodyBytes,
                maximumBlobBytes: configuration.maximumBlobBytes,
                tls: certificate, metrics: metrics),
            log: log, screen: screen, handler: handler)
    }

    /// Whether it serves HTTPS.
    public var servesTLS: Bool { configuration.tlsFiles != nil }

    /// Puts in force what may change while serving (SIGHUP): the request and authentication
    /// limits, the trusted proxies, and the certificate, read again from `new.tlsFiles` (renewed,
    /// or other files). The other fields of `new` are not looked at: they need a restart.
    ///
    /// New proxies or a new certificate take over without closing the port: a new daemon takes
    /// over the listening socket, and the old one finishes its requests and closes its
    /// connections as at shutdown (a client on an idle one sees a clean close and reconnects).
    /// When the certificate cannot be read or does not belong with its key, the rest is put in
    /// force, the certificate in use stays, and the error is thrown.
    public func reload(_ new: ServerConfiguration) throws {
        service.updateLimits(rate: new.rateLimit, authenticationFailuresPerMinute: new.authenticationFailuresPerMinute)
        var (proxies, certificate) = live.withLock { $0 }
        var certificateError: (any Error)?
        let files = servesTLS ? new.tlsFiles : nil
        if let files {
            do {
                certificate = try TLSCertificate(certificateFile: files.certificate, keyFile: files.key)
            } catch {
                certificateError = error
            }
        }
        let reread = files != nil && certificateError == nil
        if reread || proxies != new.trustedProxies {
            proxies = new.trustedProxies
            var daemonConfiguration = configuration
            daemonConfiguration.trustedProxies = proxies
            let replacement = try Self.daemon(on: listener, daemonConfiguration, certificate: certificate, metrics: metrics,
                                              log: log, screen: service.answerBeforeBody(of:), handler: service.respond(to:))
            serving.replace(with: replacement)?.shutdown(grace: configuration.shutdownGrace, refusingConnections: false)
            live.withLock { $0 = (proxies, certificate) }
        }
        if reread, let files { log.write("reloaded the TLS certificate from \(files.certificate.path)") }
        if let certificateError { throw certificateError }
    }

    /// Requests being answered right now.
    var requestsInFlight: Int { serving.current?.requestsInFlight ?? 0 }

    /// Waits until the number of requests in flight is in `range`; false if `timeout` passed first.
    func awaitRequestsInFlight(_ range: ClosedRange<Int>, timeout: TimeInterval = 60) -> Bool {
        serving.current?.awaitRequestsInFlight(range, timeout: timeout) ?? false
    }

    /// Stops accepting connections, closes those between requests, waits for requests that
    /// started (up to the configured grace), stops the threads and closes the storage. Every
    /// write answered with 2xx was committed before its answer was sent, so none is lost.
    /// Calls after the first (a signal handler and a `defer` may both ask) do nothing.
    public func shutdown() {
        let isFirst = isShutDown.withLock { isShutDown in
            defer { isShutDown = true }
            return !isShutDown
        }
        guard isFirst else { return }
        purgeTimer?.cancel()
        serving.current?.shutdown(grace: configuration.shutdownGrace)
        close(listener)
        if let metricsDaemon {
            metricsDaemon.daemon.shutdown(grace: 0)
            close(metricsDaemon.socket)
        }
        storage.close()
    }

    /// Removes tombstones, superseded revisions and idempotency records older than `retention`,
    /// and blobs no revision refers to that nobody wanted for `blobGrace`.
    static func purge(_ storage: any SyncStorage, retention: TimeInterval, blobGrace: TimeInterval, log: ServerLog) {
        do {
            let now = Date()
            let report = try storage.purge(before: now - retention, unwantedBlobsBefore: now - blobGrace)
            log.write("purge: \(report.tombstones) tombstones, \(report.supersededRevisions) superseded revisions, "
                      + "\(report.operations) idempotency records, \(report.blobs) blobs (\(report.blobBytes) bytes)")
        } catch {
            log.write("purge: \(error)", level: .error)
        }
    }
}

/// The daemon that serves the sync address now, shared by the server and the metrics text.
private final class DaemonSlot: Sendable {
    private let daemon = Mutex<HTTPDaemon?>(nil)

    var current: HTTPDaemon? { daemon.withLock { $0 } }

    /// Puts `new` in place and answers the daemon it replaced.
    @discardableResult
    func replace(with new: HTTPDaemon) -> HTTPDaemon? {
        daemon.withLock { daemon in
            defer { daemon = new }
            return daemon
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
