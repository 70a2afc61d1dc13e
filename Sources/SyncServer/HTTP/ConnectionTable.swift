import Foundation
import Glibc

/// The daemon's open connections and its requests in flight, under one lock, so that shutting
/// down can tell the connections between requests (closed at once) from those inside one
/// (answered first) without a request slipping between the two.
///
/// A connection is *inside a request* from the moment libmicrohttpd has read the request's headers
/// until the answer was sent; otherwise it is *between requests*: idle after an answer, or still
/// receiving headers. Closing one means `shutdown(2)` of its socket: libmicrohttpd then sees the
/// end of the stream and closes the connection itself, and the client sees a clean close.
///
/// `@unchecked Sendable`: every field is read and written under `condition`.
final class ConnectionTable: @unchecked Sendable {
    private struct Entry {
        let socket: Int32
        var isInsideRequest = false
        var isClosing = false
    }

    private let condition = NSCondition()
    private var entries: [UInt: Entry] = [:]
    private var inFlight = 0
    private var draining = false

    /// A connection libmicrohttpd accepted. One accepted while draining is closed at once.
    func opened(_ connection: OpaquePointer, socket: Int32) {
        condition.lock()
        defer { condition.unlock() }
        var entry = Entry(socket: socket)
        if draining { close(&entry) }
        entries[key(connection)] = entry
    }

    /// libmicrohttpd closed the connection; its socket is still open during this call.
    func closed(_ connection: OpaquePointer) {
        condition.lock()
        entries[key(connection)] = nil
        condition.unlock()
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

    /// The request's answer was sent (or the connection broke). While draining the connection is
    /// then closed, since no further request on it would be served.
    func requestEnded(on connection: OpaquePointer) {
        condition.lock()
        defer { condition.unlock() }
        inFlight -= 1
        let key = key(connection)
        entries[key]?.isInsideRequest = false
        if draining, var entry = entries[key] {
            close(&entry)
            entries[key] = entry
        }
        condition.broadcast()
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

    private func close(_ entry: inout Entry) {
        guard !entry.isClosing else { return }
        entry.isClosing = true
        Glibc.shutdown(entry.socket, Int32(SHUT_RDWR))
    }

    private func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }
}
