import Foundation
import Glibc

/// Closes the connections whose client may still be sending a body that the server answered
/// without reading, the way nginx's lingering close does.
///
/// libmicrohttpd answers such a request (413 for a declared size, 431, 400, 503, a refused blob
/// upload), shuts its side down for writing and closes the socket. Closing a socket with unread
/// bytes makes the kernel send a reset, and a client still writing its body then fails with a
/// broken pipe, often before it has read the answer: a sync client takes that for "outcome
/// unknown" and sends the same oversize body again, for ever.
///
/// So the daemon hands such a socket here just before libmicrohttpd closes it. A duplicate keeps
/// the connection open, and what the client still sends is read and thrown away until it closes
/// its side, or for at most `duration`. Meanwhile the client reads the answer and stops sending
/// (libcurl: "HTTP error before end of send, stop sending").
///
/// One thread, started by the first socket, serves every lingering socket; it waits on a
/// condition while there is none.
/// `@unchecked Sendable`: every field is read and written under `condition`.
final class LingeringClose: @unchecked Sendable {
    private struct Lingering {
        let socket: Int32
        let deadline: TimeInterval
    }

    /// How long a client may go on sending after its answer.
    let duration: TimeInterval
    /// Sockets lingering at once; more are closed at once, so that clients cannot hold
    /// descriptors the daemon would need.
    let capacity: Int
    private let condition = NSCondition()
    private var lingering: [Lingering] = []
    private var isStopped = false
    private var isRunning = false
    private var hasExited = false

    init(duration: TimeInterval = 5, capacity: Int = 256) {
        self.duration = duration
        self.capacity = capacity
    }

    /// Takes over a duplicate of `socket`, which its owner closes afterwards.
    func linger(_ socket: Int32) {
        let copy = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return }
        // The end of the answer for the client: with TLS, libmicrohttpd only closed the session.
        Glibc.shutdown(copy, Int32(SHUT_WR))
        condition.lock()
        defer { condition.unlock() }
        guard !isStopped, lingering.count < capacity else {
            Glibc.close(copy)
            return
        }
        lingering.append(Lingering(socket: copy, deadline: Self.now() + duration))
        condition.broadcast()
        if !isRunning {
            isRunning = true
            let thread = Thread { [self] in run() }
            thread.name = "quire-server.lingering-close"
            thread.start()
        }
    }

    /// Closes every lingering socket and ends the thread; returns once it has ended.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        isStopped = true
        condition.broadcast()
        while isRunning && !hasExited { condition.wait() }
    }

    /// Sockets lingering now, for tests.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return lingering.count
    }

    private func run() {
        var discarded = [UInt8](repeating: 0, count: 64 * 1024)
        while let current = nextSockets() {
            var descriptors = current.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            // At most a tenth of a second, so that new sockets and `stop` are seen soon.
            let wait = current.map(\.deadline).min()! - Self.now()
            _ = poll(&descriptors, nfds_t(descriptors.count), Int32(max(0, min(100, wait * 1000 + 1))))
            let now = Self.now()
            let ended = current.indices.filter { index in
                let isOpen = descriptors[index].revents == 0 || Self.discardsAndStaysOpen(current[index].socket, into: &discarded)
                return !isOpen || current[index].deadline <= now
            }.map { current[$0].socket }
            guard !ended.isEmpty else { continue }
            condition.lock()
            lingering.removeAll { ended.contains($0.socket) }
            condition.unlock()
            ended.forEach { Glibc.close($0) }
        }
    }

    /// The sockets to serve, waiting while there are none; nil once stopped (after closing them).
    private func nextSockets() -> [Lingering]? {
        condition.lock()
        defer { condition.unlock() }
        while lingering.isEmpty && !isStopped { condition.wait() }
        guard isStopped else { return lingering }
        lingering.forEach { Glibc.close($0.socket) }
        lingering = []
        hasExited = true
        condition.broadcast()
        return nil
    }

    /// Reads what has arrived and throws it away; false once the client closed its side or the
    /// connection broke. A bounded number of reads, so that one fast sender cannot hold the
    /// thread from the others.
    private static func discardsAndStaysOpen(_ socket: Int32, into buffer: inout [UInt8]) -> Bool {
        for _ in 0..<16 {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
        }
        return true
    }

    private static func now() -> TimeInterval { ProcessInfo.processInfo.systemUptime }
}
