import CMicroHTTPD
import Foundation
import Glibc
import SyncProtocol

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads with internal polling, each calling
/// `handler` synchronously for complete requests.
///
/// The daemon itself enforces what must be decided before a body arrives: header size (431),
/// framing that could hide a second request (400, see `MessageFraming`), declared body size
/// (413), and refusing new requests while it shuts down (503). Such an answer closes the
/// connection, which lingers while the client may still be sending its body (`LingeringClose`).
/// It routes on the request target as sent, never on libmicrohttpd's decoded copy (see
/// `RequestTarget`).
///
/// Connections: each address may hold a limited number open at once, and a client must send a
/// whole request, or read a whole answer, within the timeout; trickling bytes does not extend it
/// (see `ConnectionTable`).
///
/// Shutting down: the listening socket stops accepting, connections between requests are closed
/// at once, requests in flight are answered (for at most the grace), and every answer sent from
/// then on closes its connection. A request whose headers are read after shutdown began gets 503
/// without being looked at. So a client on an idle connection sees either a clean close or a 503,
/// and its request was not applied in either case (`data/sync-api.yaml`, "Shutdown").
///
/// `@unchecked Sendable`: `daemon` is written once before any callback runs and read after; the
/// connections and the in-flight count are guarded by `connections`.
final class HTTPDaemon: @unchecked Sendable {
    struct Configuration: Sendable {
        /// A bound, listening socket, which the caller closes after the daemon stopped (several
        /// daemons may take turns on one, see `QuireServer.reload`).
        var listenSocket: Int32
        var threads: Int
        var connectionTimeoutSeconds: Int
        var maximumConnections: Int
        var maximumConnectionsPerAddress: Int
        /// Peers whose `X-Forwarded-For` names the client, and who are not limited per address.
        var trustedProxies: [AddressRange]
        var maximumHeaderBytes: Int
        var maximumBodyBytes: Int
        /// The body limit of `PUT /v1/blobs/{sha256}` instead of `maximumBodyBytes`.
        var maximumBlobBytes: Int
        /// HTTPS with this certificate, or plain HTTP.
        var tls: TLSCertificate?
        /// Where each answer is counted.
        var metrics: Metrics?
    }

    /// The oldest libmicrohttpd whose behaviour was checked with this code.
    static let minimumLibraryVersion = [0, 9, 75]

    private let configuration: Configuration
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let screen: @Sendable (HTTPRequest) -> HTTPResponse?
    private let log: ServerLog
    private var daemon: OpaquePointer?
    private let connections: ConnectionTable
    private let lingeringClose = LingeringClose()
    private let overdueSweep: any DispatchSourceTimer
    /// Copies of the PEM texts and priorities libmicrohttpd was given, freed after it stopped.
    private let tlsStrings: [UnsafeMutablePointer<CChar>]
    /// libmicrohttpd's own descriptor of the listening socket (a `dup`): it closes it when it
    /// fails to start, and leaves it to us once quiesced, so the caller's stays open either way.
    private let listener: Int32

    /// `handler` answers complete requests. `screen` looks at a blob upload's headers before its
    /// body (up to `maximumBlobBytes`) is read, and answers at once when they already decide it
    /// (an unknown token): a client that may not upload cannot make the server hold 25 MB for it.
    init(configuration: Configuration, log: ServerLog, screen: @escaping @Sendable (HTTPRequest) -> HTTPResponse? = { _ in nil },
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        let version = String(cString: MHD_get_version())
        let parts = version.split(separator: ".").map { Int($0) ?? 0 }
        guard !parts.lexicographicallyPrecedes(Self.minimumLibraryVersion) else {
            throw ServerError.unsupportedLibrary("libmicrohttpd \(version) is older than 0.9.75")
        }
        self.configuration = configuration
        self.handler = handler
        self.screen = screen
        self.log = log
        let timeout = TimeInterval(configuration.connectionTimeoutSeconds)
        let proxies = configuration.trustedProxies
        connections = ConnectionTable(timeout: timeout, maximumPerAddress: configuration.maximumConnectionsPerAddress,
                                      unlimited: { address in proxies.contains { $0.contains(address) } })
        overdueSweep = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "quire-server.connections"))
        // Resumed at once (it fires only once scheduled below): libdispatch crashes on releasing a
        // source that was never resumed, as when starting the daemon fails.
        overdueSweep.resume()
        if configuration.tls != nil, !TLSCertificate.isSupported {
            throw ServerError.tls("this libmicrohttpd was built without HTTPS")
        }
        listener = fcntl(configuration.listenSocket, F_DUPFD_CLOEXEC, 0)
        guard listener >= 0 else { throw ServerError.cannotListen("dup of the listening socket: \(String(cString: strerror(errno)))") }
        tlsStrings = configuration.tls.map { [strdup($0.chainPEM), strdup($0.privateKeyPEM), strdup(TLSCertificate.priorities)] }?
            .compactMap { $0 } ?? []
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Twice the header limit leaves libmicrohttpd room for its read buffer and our answer's
        // headers; headers beyond it get libmicrohttpd's own 431.
        let memoryLimit = max(32 * 1024, configuration.maximumHeaderBytes * 2 + 16 * 1024)
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: MHD_OPTION.LISTEN_SOCKET, value: Int(listener), ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil),
            // No timeout of libmicrohttpd's own: it counts the time its thread spent answering
            // other connections against a connection whose request waits unread, and so cut
            // clients of a busy server. `ConnectionTable` times clients out instead.
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_TIMEOUT, value: 0, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_LIMIT, value: configuration.maximumConnections, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_MEMORY_LIMIT, value: memoryLimit, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.NOTIFY_COMPLETED, value: unsafeBitCast(requestCompleted, to: Int.self),
                           ptr_value: context),
            MHD_OptionItem(option: MHD_OPTION.NOTIFY_CONNECTION, value: unsafeBitCast(connectionNotified, to: Int.self),
                           ptr_value: context),
            MHD_OptionItem(option: MHD_OPTION.URI_LOG_CALLBACK, value: unsafeBitCast(requestLineRead, to: Int.self),
                           ptr_value: context),
        ]
        var flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
        if tlsStrings.count == 3 {
            flags |= MHD_USE_TLS.rawValue
            options += [
                MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[0])),
                MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[1])),
                MHD_OptionItem(option: MHD_OPTION.HTTPS_PRIORITIES, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[2])),
            ]
        }
        options.append(MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil))
        daemon = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, context, arguments)
            }
        }
        guard daemon != nil else {
            overdueSweep.cancel()
            lingeringClose.stop()
            tlsStrings.forEach { free($0) }
            if configuration.tls != nil {
                throw ServerError.tls("libmicrohttpd \(version) refused the certificate or key (do they belong together?)")
            }
            throw ServerError.cannotListen("libmicrohttpd \(version) refused to start the daemon")
        }
        // A quarter of the timeout: a late client is cut at most a quarter late.
        let interval = min(5, max(0.25, timeout / 4))
        overdueSweep.schedule(deadline: .now() + interval, repeating: interval)
        overdueSweep.setEventHandler { [connections, log] in
            let closed = connections.closeOverdue()
            if closed > 0 {
                log.write("closed \(closed) connections whose client took longer than \(Int(timeout)) s", level: .warning)
            }
        }
    }

    /// Requests whose headers were read and whose answers were not yet sent.
    var requestsInFlight: Int { connections.requestsInFlight }

    /// Waits until the number of requests in flight is in `range` (or `timeout` passed); answers
    /// whether it got there. For tests that must know where the daemon is, not guess.
    func awaitRequestsInFlight(_ range: ClosedRange<Int>, timeout: TimeInterval) -> Bool {
        connections.awaitRequestsInFlight(range, until: Date(timeIntervalSinceNow: timeout))
    }

    /// Stops accepting connections, closes those between requests, lets requests already started
    /// finish (for at most `grace`), then stops the threads. The caller closes the listening
    /// socket afterwards.
    ///
    /// With `refusingConnections`, the listening socket is shut down at once, so that new
    /// connections are refused; without it, it is only left to another daemon that serves it
    /// from now on (a certificate reload).
    ///
    /// The order matters to clients: requests are refused before anything is closed, and the
    /// listening socket refuses connections before idle ones are closed, so that a client that
    /// saw its idle connection close also finds the port closed.
    func shutdown(grace: TimeInterval, refusingConnections: Bool = true) {
        guard let daemon, connections.beginDraining() else { return }
        overdueSweep.cancel()
        _ = MHD_quiesce_daemon(daemon)
        // Keep the descriptor open until the threads stopped: a thread may still be about to call
        // accept on it, and a closed number could be reused meanwhile.
        if refusingConnections { Glibc.shutdown(listener, Int32(SHUT_RDWR)) }
        connections.closeConnectionsBetweenRequests()
        if !connections.awaitRequestsInFlight(0...0, until: Date(timeIntervalSinceNow: grace)) {
            log.write("shutdown: \(connections.requestsInFlight) requests did not finish within \(grace) s", level: .warning)
        }
        MHD_stop_daemon(daemon)
        lingeringClose.stop()
        Glibc.close(listener)
        tlsStrings.forEach { free($0) }
    }

    /// Connections open now, for metrics.
    var openConnections: Int { connections.openConnections }

    // MARK: Callbacks, on libmicrohttpd's threads

    /// A request line arrived: the exchange starts here, with the target exactly as sent.
    fileprivate func requestArrived(_ target: String) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(Exchange(rawTarget: target)).toOpaque()
    }

    fileprivate func handle(
        _ connection: OpaquePointer, method: String, version: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if context.pointee == nil { context.pointee = requestArrived("") }
        let exchange = Unmanaged<Exchange>.fromOpaque(context.pointee!).takeUnretainedValue()
        guard exchange.hasBegun else {
            // The first call of a request: its headers are complete, its body has not been read.
            exchange.begin(method: method, headers: Self.headers(connection), peerAddress: connections.address(of: connection))
            exchange.rejection = rejection(of: exchange, version: version, refusing: connections.requestBegan(on: connection))
            if exchange.rejection == nil, uploadsBlob(exchange) {
                exchange.rejection = connections.serverWork { screened(exchange) }
            }
            // A rejection is answered at once, before the client sends a body nobody will read.
            if let rejection = exchange.rejection {
                if exchange.announcesBody { connections.answeredBeforeBody(on: connection) }
                return send(rejection, for: exchange, on: connection)
            }
            return MHD_Result.YES
        }
        if uploadSize.pointee > 0 {
            if exchange.rejection == nil, let upload {
                if exchange.body.count + uploadSize.pointee > bodyLimit(of: exchange) {
                    // A body without Content-Length (chunked) grew past the limit.
                    exchange.rejection = tooLarge(exchange, headers: [("Connection", "close")])
                    exchange.body = []
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                        exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                    }
                }
            }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        if exchange.isAnswered { return MHD_Result.YES }
        connections.requestReceived(on: connection)
        let response = exchange.rejection ?? connections.serverWork {
            handler(HTTPRequest(method: exchange.method, target: exchange.rawTarget, headers: exchange.headers,
                                body: exchange.body, clientAddress: exchange.clientAddress(trusting: configuration.trustedProxies)))
        }
        return send(response, for: exchange, on: connection)
    }

    /// The answer a request gets before its body is read, if it gets one then: 503 while shutting
    /// down, 431 for oversize headers, 400 for framing that could hide a second request, 413 for a
    /// declared body over the limit. Each closes the connection.
    private func rejection(of exchange: Exchange, version: String, refusing: Bool) -> HTTPResponse? {
        let close = ("Connection", "close")
        if refusing {
            return .problem(.unavailable("the server is shutting down"), headers: [(SyncHeader.retryAfter, "1"), close])
        }
        if exchange.headerBytes > configuration.maximumHeaderBytes {
            return .problem(.headersTooLarge(limit: configuration.maximumHeaderBytes), headers: [close])
        }
        if let violation = MessageFraming.violation(version: version, headers: exchange.headers, counts: exchange.headerCounts) {
            return .problem(.invalidField(violation), headers: [close])
        }
        if let length = exchange.headers["content-length"].flatMap({ Int($0) }), length > bodyLimit(of: exchange) {
            return tooLarge(exchange, headers: [close])
        }
        return nil
    }

    /// `screen`'s answer to a blob upload from its headers, closing the connection (the client
    /// may be sending the body nobody will read).
    private func screened(_ exchange: Exchange) -> HTTPResponse? {
        let request = HTTPRequest(method: exchange.method, target: exchange.rawTarget, headers: exchange.headers,
                                  clientAddress: exchange.clientAddress(trusting: configuration.trustedProxies))
        guard var answer = screen(request) else { return nil }
        answer.headers.append(("Connection", "close"))
        return answer
    }

    /// Whether the request uploads a blob, whose body may be larger than any other.
    private func uploadsBlob(_ exchange: Exchange) -> Bool {
        exchange.method == "PUT" && exchange.rawPath.hasPrefix(SyncPath.blob(""))
    }

    private func bodyLimit(of exchange: Exchange) -> Int {
        uploadsBlob(exchange) ? configuration.maximumBlobBytes : configuration.maximumBodyBytes
    }

    private func tooLarge(_ exchange: Exchange, headers: [(String, String)]) -> HTTPResponse {
        uploadsBlob(exchange) ? .problem(.blobTooLarge(limit: configuration.maximumBlobBytes), headers: headers)
            : .problem(.payloadTooLarge(limit: configuration.maximumBodyBytes), headers: headers)
    }

    fileprivate func completed(_ connection: OpaquePointer?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let connection, let pointer = context?.pointee else { return }
        context?.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
        // libmicrohttpd answered some requests itself (huge headers, a malformed line) before
        // they reached the handler: those were never in flight.
        if exchange.hasBegun { connections.requestEnded(on: connection) }
    }

    fileprivate func connection(_ connection: OpaquePointer, started: Bool) {
        if started {
            var text = [CChar](repeating: 0, count: 64)
            let known = quire_mhd_client_address(connection, &text, socklen_t(text.count)) != 0
            let address = known ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
            connections.opened(connection, socket: quire_mhd_connection_socket(connection), address: address)
        } else if let socket = connections.closed(connection) {
            lingeringClose.linger(socket)
        }
    }

    private func send(_ response: HTTPResponse, for exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        exchange.isAnswered = true
        connections.answerQueued(on: connection)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - exchange.started) / 1_000_000
        configuration.metrics?.observeRequest(route: response.route ?? "none", method: exchange.method, status: response.status,
                                              seconds: milliseconds / 1000)
        log.access(method: exchange.method, path: exchange.rawPath, status: response.status, milliseconds: milliseconds,
                   client: exchange.clientAddress(trusting: configuration.trustedProxies), note: response.logNote)
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return MHD_Result.NO }
        defer { MHD_destroy_response(mhdResponse) }
        var headers = response.headers
        // While shutting down, no connection is kept for a next request.
        if connections.isDraining, !headers.contains(where: { $0.name.lowercased() == "connection" }) {
            headers.append(("Connection", "close"))
        }
        for (name, value) in headers {
            guard MHD_add_response_header(mhdResponse, name, value) == MHD_Result.YES else { return MHD_Result.NO }
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }

    /// The request's headers by lowercase name, repeated ones joined by ", ", and how many times
    /// each name was sent.
    private static func headers(_ connection: OpaquePointer) -> (values: [String: String], counts: [String: Int]) {
        let collected = HeaderCollector()
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
                collector.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                return MHD_Result.YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return (collected.values, collected.counts)
    }
}

/// One request while libmicrohttpd feeds it to the daemon, from its request line to its
/// completion notice. Only the connection's thread touches it.
private final class Exchange {
    /// The path and query exactly as sent.
    let rawTarget: String
    private(set) var method = ""
    private(set) var headers: [String: String] = [:]
    private(set) var headerCounts: [String: Int] = [:]
    private(set) var peerAddress = ""
    /// Whether the handler has seen the request's headers; until then libmicrohttpd may still
    /// answer it by itself.
    private(set) var hasBegun = false
    let started = DispatchTime.now().uptimeNanoseconds
    var body: [UInt8] = []
    /// The answer decided before the body was complete (400, 413, 431, 503).
    var rejection: HTTPResponse?
    var isAnswered = false

    init(rawTarget: String) { self.rawTarget = rawTarget }

    /// The path as sent, without the query.
    var rawPath: Substring { rawTarget.prefix { $0 != "?" } }

    func begin(method: String, headers: (values: [String: String], counts: [String: Int]), peerAddress: String) {
        self.method = method
        self.headers = headers.values
        headerCounts = headers.counts
        self.peerAddress = peerAddress
        hasBegun = true
    }

    /// The client's address: the peer's, or the one a trusted proxy names.
    func clientAddress(trusting proxies: [AddressRange]) -> String {
        ClientAddress.resolve(peer: peerAddress, forwardedFor: headers["x-forwarded-for"], trusted: proxies)
    }

    /// Whether a body follows the headers.
    var announcesBody: Bool {
        headers["transfer-encoding"] != nil || headers["content-length"].map { $0 != "0" } ?? false
    }

    /// The size of the header lines as sent, give or take the line ends.
    var headerBytes: Int { headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 } }
}

private final class HeaderCollector {
    var values: [String: String] = [:]
    var counts: [String: Int] = [:]

    func add(_ name: String, _ value: String) {
        let key = name.lowercased()
        counts[key, default: 0] += 1
        if let existing = values[key] { values[key] = "\(existing), \(value)" } else { values[key] = value }
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, _, method, version, upload, uploadSize, context in
    guard let cls, let connection, let method, let uploadSize, let context else { return MHD_Result.NO }
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
    return daemon.handle(connection, method: String(cString: method), version: version.map { String(cString: $0) } ?? "",
                         upload: upload, uploadSize: uploadSize, context: context)
}

/// libmicrohttpd's URI log callback: the only place that sees the request target before it is
/// decoded (the access handler gets it with `%2F` and `%00` already turned into bytes).
private let requestLineRead: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
    -> UnsafeMutableRawPointer? = { cls, uri, _ in
    guard let cls else { return nil }
    return Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue().requestArrived(uri.map { String(cString: $0) } ?? "")
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, context, _ in
    guard let cls else { return }
    Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue().completed(connection, context)
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
        .connection(connection, started: code == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED)
}
