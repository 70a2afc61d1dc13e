import CMicroHTTPD
import Foundation
import Glibc
import SyncProtocol

/// An HTTP/1.1 server on libmicrohttpd: a pool of threads with internal polling, each calling
/// `handler` synchronously for complete requests.
///
/// The daemon itself enforces what must be decided before a body arrives: header size (431),
/// declared body size (413), and refusing new requests while it shuts down (503). A connection
/// that sends nothing for the timeout, mid-request or between requests, is closed. (A client
/// that keeps trickling bytes within the timeout is not cut off: libmicrohttpd 0.9.75 has no
/// timeout for a whole request.)
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
        /// A bound, listening socket; the daemon closes it when it stops.
        var listenSocket: Int32
        var threads: Int
        var connectionTimeoutSeconds: Int
        var maximumConnections: Int
        var maximumHeaderBytes: Int
        var maximumBodyBytes: Int
    }

    /// The oldest libmicrohttpd whose behaviour was checked with this code.
    static let minimumLibraryVersion = [0, 9, 75]

    private let configuration: Configuration
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let log: ServerLog
    private var daemon: OpaquePointer?
    private let connections = ConnectionTable()

    init(configuration: Configuration, log: ServerLog, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        let version = String(cString: MHD_get_version())
        let parts = version.split(separator: ".").map { Int($0) ?? 0 }
        guard !parts.lexicographicallyPrecedes(Self.minimumLibraryVersion) else {
            throw ServerError.unsupportedLibrary("libmicrohttpd \(version) is older than 0.9.75")
        }
        self.configuration = configuration
        self.handler = handler
        self.log = log
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Twice the header limit leaves libmicrohttpd room for its read buffer and our answer's
        // headers; headers beyond it get libmicrohttpd's own 431.
        let memoryLimit = max(32 * 1024, configuration.maximumHeaderBytes * 2 + 16 * 1024)
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: MHD_OPTION.LISTEN_SOCKET, value: Int(configuration.listenSocket), ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_TIMEOUT, value: configuration.connectionTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_LIMIT, value: configuration.maximumConnections, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_MEMORY_LIMIT, value: memoryLimit, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.NOTIFY_COMPLETED, value: unsafeBitCast(requestCompleted, to: Int.self),
                           ptr_value: context),
            MHD_OptionItem(option: MHD_OPTION.NOTIFY_CONNECTION, value: unsafeBitCast(connectionNotified, to: Int.self),
                           ptr_value: context),
            MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil),
        ]
        let flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
        daemon = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, context, arguments)
            }
        }
        guard daemon != nil else {
            throw ServerError.cannotListen("libmicrohttpd \(version) refused to start the daemon")
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
    /// finish (for at most `grace`), then stops the threads.
    ///
    /// The order matters to clients: requests are refused before anything is closed, and the
    /// listening socket refuses connections before idle ones are closed, so that a client that
    /// saw its idle connection close also finds the port closed.
    func shutdown(grace: TimeInterval) {
        guard let daemon, connections.beginDraining() else { return }
        let listener = MHD_quiesce_daemon(daemon)
        // Refuse new connections now, but keep the descriptor until the threads stopped: a thread
        // may still be about to call accept on it, and a closed number could be reused meanwhile.
        if listener >= 0 { Glibc.shutdown(listener, Int32(SHUT_RDWR)) }
        connections.closeConnectionsBetweenRequests()
        if !connections.awaitRequestsInFlight(0...0, until: Date(timeIntervalSinceNow: grace)) {
            log.write("shutdown: \(connections.requestsInFlight) requests did not finish within \(grace) s")
        }
        MHD_stop_daemon(daemon)
        if listener >= 0 { Glibc.close(listener) }
    }

    // MARK: Callbacks, on libmicrohttpd's threads

    fileprivate func handle(
        _ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let existing = context.pointee else {
            // The first call of a request: its headers are complete, its body has not been read.
            let exchange = Exchange(method: method, path: url, headers: Self.values(connection, MHD_ValueKind.HEADER_KIND))
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            if connections.requestBegan(on: connection) {
                exchange.rejection = HTTPResponse.problem(.unavailable("the server is shutting down"),
                                              headers: [(SyncHeader.retryAfter, "1"), ("Connection", "close")])
            } else if exchange.headerBytes > configuration.maximumHeaderBytes {
                exchange.rejection = HTTPResponse.problem(.headersTooLarge(limit: configuration.maximumHeaderBytes),
                                              headers: [("Connection", "close")])
            } else if let length = exchange.headers["content-length"].flatMap({ Int($0) }),
                      length > configuration.maximumBodyBytes {
                exchange.rejection = HTTPResponse.problem(.payloadTooLarge(limit: configuration.maximumBodyBytes),
                                              headers: [("Connection", "close")])
            }
            // A rejection is answered at once, before the client sends a body nobody will read.
            if let rejection = exchange.rejection { return send(rejection, for: exchange, on: connection) }
            return MHD_Result.YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if exchange.rejection == nil, let upload {
                if exchange.body.count + uploadSize.pointee > configuration.maximumBodyBytes {
                    // A body without Content-Length (chunked) grew past the limit.
                    exchange.rejection = HTTPResponse.problem(.payloadTooLarge(limit: configuration.maximumBodyBytes),
                                                  headers: [("Connection", "close")])
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
        let response = exchange.rejection ?? handler(HTTPRequest(
            method: exchange.method, path: exchange.path, query: Self.values(connection, MHD_ValueKind.GET_ARGUMENT_KIND),
            headers: exchange.headers, body: exchange.body))
        return send(response, for: exchange, on: connection)
    }

    fileprivate func completed(_ connection: OpaquePointer?, _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let connection, let pointer = context?.pointee else { return }
        context?.pointee = nil
        Unmanaged<Exchange>.fromOpaque(pointer).release()
        connections.requestEnded(on: connection)
    }

    fileprivate func connection(_ connection: OpaquePointer, started: Bool) {
        if started {
            connections.opened(connection, socket: quire_mhd_connection_socket(connection))
        } else {
            connections.closed(connection)
        }
    }

    private func send(_ response: HTTPResponse, for exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        exchange.isAnswered = true
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - exchange.started) / 1_000_000
        log.access(method: exchange.method, path: exchange.path, status: response.status, milliseconds: milliseconds,
                   note: response.logNote)
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

    /// Every value of `kind` (headers or query arguments), by lowercase name for headers.
    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [String: String] {
        let collected = ValueCollector(lowercasingNames: kind == MHD_ValueKind.HEADER_KIND)
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
                guard let cls, let key else { return MHD_Result.YES }
                let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
                collector.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                return MHD_Result.YES
            }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }
}

/// One request while libmicrohttpd feeds it to the daemon, from its first callback to its
/// completion notice. Only the connection's thread touches it.
private final class Exchange {
    let method: String
    let path: String
    let headers: [String: String]
    let started = DispatchTime.now().uptimeNanoseconds
    var body: [UInt8] = []
    /// The answer decided before the body was complete (413, 431, 503).
    var rejection: HTTPResponse?
    var isAnswered = false

    init(method: String, path: String, headers: [String: String]) {
        self.method = method
        self.path = path
        self.headers = headers
    }

    /// The size of the header lines as sent, give or take the line ends.
    var headerBytes: Int { headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 } }
}

private final class ValueCollector {
    let lowercasingNames: Bool
    var values: [String: String] = [:]

    init(lowercasingNames: Bool) { self.lowercasingNames = lowercasingNames }

    func add(_ name: String, _ value: String) {
        let key = lowercasingNames ? name.lowercased() : name
        if let existing = values[key] { values[key] = "\(existing), \(value)" } else { values[key] = value }
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
    guard let cls, let connection, let url, let method, let uploadSize, let context else { return MHD_Result.NO }
    let daemon = Unmanaged<HTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
    return daemon.handle(connection, url: String(cString: url), method: String(cString: method), upload: upload,
                         uploadSize: uploadSize, context: context)
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
