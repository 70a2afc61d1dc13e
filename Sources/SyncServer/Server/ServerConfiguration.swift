import Foundation
import SyncProtocol

/// How `serve` runs; every field but ``protocolVersion`` has a command-line option.
public struct ServerConfiguration: Sendable {
    /// `--listen`.
    public var listen = ListenAddress.loopback
    /// A listening socket to serve instead of binding `listen`: the one systemd passes when
    /// `quire-server.socket` starts the service (socket activation). The server closes it at shutdown.
    public var listenSocket: Int32?
    /// `--threads`: libmicrohttpd's thread pool, and the most database connections used at once.
    public var threads = 8
    /// `--max-body-bytes`: larger bodies get 413.
    public var maximumBodyBytes = 4 * 1024 * 1024
    /// `--max-blob-bytes`: the largest blob (`PUT /v1/blobs/{sha256}`) an account may store;
    /// larger ones get 413. As large as the largest attachment a library takes (25 MiB).
    public var maximumBlobBytes = 25 * 1024 * 1024
    /// `--blob-quota`: the bytes of blobs one account may keep, or nil for no limit; an upload
    /// past it gets 507.
    public var blobQuotaBytes: Int64? = 10 * 1024 * 1024 * 1024
    /// `--max-header-bytes`: larger header sections get 431.
    public var maximumHeaderBytes = 16 * 1024
    /// Open connections at once; more wait in the listen queue.
    public var maximumConnections = 512
    /// `--max-connections-per-address`: open connections one client address may hold; more are
    /// closed at once. Behind a reverse proxy every connection comes from the proxy's address.
    public var maximumConnectionsPerAddress = 64
    /// `--client-timeout`: how long a client may take to send a whole request, or to read a
    /// whole answer, and how long a connection may stay idle between requests. Trickling bytes
    /// does not extend it.
    public var clientTimeoutSeconds = 30
    /// `--page-size`: the largest page of `changes` and `articles`; larger limits are capped.
    public var maximumPageSize = 1000
    /// `--page-bytes`: a page of `changes` or `articles` ends early once its titles and bodies
    /// reach this many bytes (it always holds one), which bounds a request's memory.
    public var maximumPageBytes = 8 * 1024 * 1024
    /// The page size when the request names none.
    public var defaultPageSize = 100
    /// `--trusted-proxies`: peers whose `X-Forwarded-For` names the client (a reverse proxy on
    /// this machine: `127.0.0.1, ::1`). Their connections are not limited per address.
    public var trustedProxies: [AddressRange] = []
    /// `--auth-failure-limit`: failed authentications a minute per client address (IPv6: per
    /// /64) before its requests get 429 for a while, or nil for no limit. Per address, not per
    /// account, so that an attacker cannot lock a writer out.
    public var authenticationFailuresPerMinute: Int? = 20
    /// `--metrics-listen`: a second address that serves `/metrics` (and nothing else) to
    /// anyone who reaches it, or nil.
    public var metricsListen: ListenAddress?
    /// `--metrics-token-file`: the bearer token that `/metrics` on the sync address asks for, or
    /// nil for no `/metrics` there.
    public var metricsToken: String?
    /// `--tls-cert`, `--tls-key`: serve HTTPS with this certificate chain and key (read again on
    /// SIGHUP), or nil for plain HTTP (behind a reverse proxy that terminates TLS).
    public var tlsFiles: (certificate: URL, key: URL)?
    /// `--rate-limit`: requests per second per account (bursts of twice as many, at least one), or
    /// nil for none.
    public var rateLimit: Double? = 200
    /// `--operation-lease`: how long a running idempotency claim blocks its key. After that, a
    /// server that died mid-request no longer blocks the client's retry.
    public var operationLease: TimeInterval = 30
    /// `--retention`: how long tombstones, superseded revisions and answers stored for
    /// idempotency keys are kept. A client offline for longer resyncs from a snapshot.
    public var retention: TimeInterval = 30 * 24 * 3600
    /// `--purge-interval`: how often the server removes what is past retention (0: never).
    public var purgeInterval: TimeInterval = 3600
    /// `--blob-grace`: how long the purge leaves a blob that no article refers to after it was last
    /// uploaded, asked for (`HEAD`) or referred to by an article sent: longer than a client takes
    /// from its uploads to the article that needs them, so that a 424 cannot come from a blob
    /// collected in between.
    public var blobGrace: TimeInterval = 24 * 3600
    /// How long shutdown waits for requests that have started.
    public var shutdownGrace: TimeInterval = 10
    /// The ``ProtocolVersion`` the server answers on `GET /v1/health` and whose article fields it
    /// accepts (the others are refused as unknown). Lower only in tests, to act as a server from
    /// before a version; it has no command-line option.
    public var protocolVersion = ProtocolVersion.current

    /// The defaults listed above.
    public init() {}
}
