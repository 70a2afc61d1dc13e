import Foundation
import Glibc

/// The daemon's open connections and its requests in flight, under one lock, so that closing a
/// connection (at shutdown, over a limit, past a deadline) never races a request on it.
///
/// A connection is *inside a request* from the moment libmicrohttpd has read the request's headers
/// until the answer was sent; otherwise it is *between requests*: idle after an answer, or still
/// receiving headers. Closing one means `shutdown(2)` of its socket: libmicrohttpd then sees the
/// end of the stream and closes the connection itself, and the client sees a clean close.
///
/// Deadlines: whatever the client has to do, send a whole request (headers and body) or read a
/// whole answer, it must do within `timeout` of the moment it could start. Bytes trickled in one
/// at a time do not extend that, unlike libmicrohttpd's own timeout, which only ends silence.
/// The server's own work has no deadline, and neither counts against a client: libmicrohttpd's
/// thread serves its connections one at a time, so while it answers one request the others
/// wait unread; the time that thread spent in the handler since a client's turn began is taken
/// off that turn.
///
/// `@unchecked Sendable`: every field is read and written under `condition`.
final class ConnectionTable: @unchecked Sendable {
    private struct Entry {
        let socket: Int32
        let address: String
        var isInsideRequest = false
        var isClosing = false
        /// Whether a request was answered before its body was read (see `LingeringClose`).
        var leavesBodyUnread = false
        /// Whether it counts toward its address's open connections (until it is being closed).
        var isCounted = false
        /// When the client's current turn began (sending a request, reading an answer); nil while
        /// the server works on a request.
        var clientTurnSince: TimeInterval?
        /// The libmicrohttpd thread that serves the connection (each serves its own for life).
        let thread: UInt
        /// That thread's time in the handler when the turn began.
        var threadBusyAtTurn: TimeInterval = 0
    }

    private let condition = NSCondition()
    private let timeout: TimeInterval
    private let maximumPerAddress: Int
    private let isUnlimited: @Sendable (String) -> Bool
    private let clock: @Sendable () -> TimeInterval
    private var entries: [UInt: Entry] = [:]
    /// Seconds each libmicrohttpd thread has spent in the handler, by `pthread_self`.
    private var busy: [UInt: TimeInterval] = [:]
    private var openPerAddress: [String: Int] = [:]
    private var inFlight = 0
    private var draining = false

    /// - Parameters:
    ///   - timeout: the deadline of each of the client's turns (see the type's description).
    ///   - maximumPerAddress: connections one address may hold open at once; more are closed at
    ///     once, so that one client cannot take every connection the daemon allows.
    ///   - unlimited: whether an address may hold any number (a trusted reverse proxy, through
    ///     which every client comes).
    ///   - clock: seconds on a monotonic clock.
    init(timeout: TimeInterval, maximumPerAddress: Int, unlimited: @escaping @Sendable (String) -> Bool = { _ in false },
         clock: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        self.timeout = timeout
        self.maximumPerAddress = maximumPerAddress
        self.isUnlimited = unlimited
        self.clock = clock
    }

    /// A connection libmicrohttpd accepted. It is closed at once while draining, and when its
    /// address already holds as many connections as it may.
    func opened(_ connection: OpaquePointer, socket: Int32, address: String) {
        condition.lock()
        defer { condition.unlock() }
        let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        var entry = Entry(socket: socket, address: address, clientTurnSince: clock(), thread: thread,
                          threadBusyAtTurn: busy[thread, default: 0])
        if draining || (openPerAddress[address, default: 0] >= maximumPerAddress && !isUnlimited(address)) {
            close(&entry)
        } else {
            openPerAddress[address, default: 0] += 1
            entry.isCounted = true
        }
        entries[key(connection)] = entry
    }

    /// libmicrohttpd closed the connection; its socket is still open during this call. Answers
    /// the socket when it must linger: a request on it was answered before its body was read,
    /// and the table did not shut it down itself.
    func closed(_ connection: OpaquePointer) -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        guard var entry = entries.removeValue(forKey: key(connection)) else { return nil }
        uncount(&entry)
        return entry.leavesBodyUnread && !entry.isClosing ? entry.socket : nil
    }

    /// A request on the connection was answered while its client may still be sending the body.
    func answeredBeforeBody(on connection: OpaquePointer) {
        condition.lock()
        entries[key(connection)]?.leavesBodyUnread = true
        condition.unlock()
    }

    /// The peer address of the connection, as text.
    func address(of connection: OpaquePointer) -> String {
        condition.lock()
        defer { condition.unlock() }
        return entries[key(connection)]?.address ?? "unknown"
    }

    /// A request's headers were read: it is in flight until `requestEnded`. Answers true when it
    /// must be refused without being looked at: the daemon is shutting down, or the connection is
    /// being closed (its answer could not be delivered).
    func requestBegan(on connection: OpaquePointer) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        inFlight += 1
        condition.broadcast()
        let key = key(connection)
        entries[key]?.isInsideRequest = true
        return draining || entries[key]?.isClosing == true
    }

    /// The request's body has arrived: the server works on it, with no deadline.
    func requestReceived(on connection: OpaquePointer) {
        condition.lock()
        entries[key(connection)]?.clientTurnSince = nil
        condition.unlock()
    }

    /// An answer was queued: the client has `timeout` to read it.
    func answerQueued(on connection: OpaquePointer) {
        condition.lock()
        startTurn(key(connection))
        condition.unlock()
    }

    /// Runs `work` (the handler, on a libmicrohttpd thread) and counts its time as that thread's.
    func serverWork<T>(_ work: () -> T) -> T {
        let started = clock()
        defer {
            let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
            condition.lock()
            busy[thread, default: 0] += clock() - started
            condition.unlock()
        }
        return work()
    }

    /// The request's answer was sent (or the connection broke). While draining the connection is
    /// then closed, since no further request on it would be served.
    func requestEnded(on connection: OpaquePointer) {
        condition.lock()
        defer { condition.unlock() }
        inFlight -= 1
        let key = key(connection)
        entries[key]?.isInsideRequest = false
        startTurn(key)
        if draining, var entry = entries[key] {
            close(&entry)
            entries[key] = entry
        }
        condition.broadcast()
    }

    /// Closes the connections whose client let its turn run past the deadline; answers how many.
    @discardableResult
    func closeOverdue() -> Int {
        condition.lock()
        defer { condition.unlock() }
        let now = clock()
        var closed = 0
        for (key, var entry) in entries where !entry.isClosing {
            guard let since = entry.clientTurnSince else { continue }
            let serverTime = busy[entry.thread, default: 0] - entry.threadBusyAtTurn
            guard now - since - serverTime > timeout else { continue }
            close(&entry)
            entries[key] = entry
            closed += 1
        }
        return closed
    }

    /// Connections open now (those being closed included), for metrics.
    var openConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.count
    }

    /// Requests whose headers were read and whose answers were not yet sent.
    var requestsInFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return inFlight
    }

    /// Whether shutdown has begun: answers sent now close their connection.
    var isDraining: Bool {
        condition.lock()
        defer { condition.unlock() }
        return draining
    }

    /// Starts draining: from now on requests are refused and answers close their connection.
    /// Answers false when the table was already draining.
    func beginDraining() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !draining else { return false }
        draining = true
        return true
    }

    /// Closes every connection between requests; those inside one close after their answer.
    func closeConnectionsBetweenRequests() {
        condition.lock()
        defer { condition.unlock() }
        for (key, var entry) in entries where !entry.isInsideRequest {
            close(&entry)
            entries[key] = entry
        }
    }

    /// Waits until the number of requests in flight is in `range`, or until `deadline`; answers
    /// whether it got there.
    func awaitRequestsInFlight(_ range: ClosedRange<Int>, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !range.contains(inFlight) {
            guard condition.wait(until: deadline) else { return range.contains(inFlight) }
        }
        return true
    }

    private func startTurn(_ key: UInt) {
        guard let thread = entries[key]?.thread else { return }
        entries[key]?.clientTurnSince = clock()
        entries[key]?.threadBusyAtTurn = busy[thread, default: 0]
    }

    /// Shuts the socket down once; the address's count drops at once, so that a client whose
    /// connections are being closed can open new ones.
    private func close(_ entry: inout Entry) {
        guard !entry.isClosing else { return }
        entry.isClosing = true
        Glibc.shutdown(entry.socket, Int32(SHUT_RDWR))
        uncount(&entry)
    }

    private func uncount(_ entry: inout Entry) {
        guard entry.isCounted else { return }
        entry.isCounted = false
        let count = openPerAddress[entry.address, default: 1]
        openPerAddress[entry.address] = count > 1 ? count - 1 : nil
    }

    private func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }
}
