import Foundation
import Glibc
import QuireTestSupport
@testable import SyncServer
import Testing

/// `LingeringClose` on a connected pair of sockets: the server's end is handed over and closed
/// by its owner, as libmicrohttpd does; the client's end is what a client sees.
@Suite struct LingeringCloseTests {
    /// A connected pair: (server's end, client's end).
    func socketPair() throws -> (server: Int32, client: Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw POSIXError(.EIO) }
        return (ends[0], ends[1])
    }

    /// Whether the client's end reads the end of the stream (false: it would still wait).
    func clientSeesTheEnd(_ client: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(client, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    /// Writes `count` bytes without blocking; how many the other end took.
    func send(_ count: Int, on client: Int32) -> Int {
        let bytes = [UInt8](repeating: 0x78, count: count)
        return bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    @Test func whatTheClientStillSendsIsReadUntilItClosesItsSide() async throws {
        let lingeringClose = LingeringClose(duration: 60)
        defer { lingeringClose.stop() }
        let (server, client) = try socketPair()
        defer { close(client) }
        lingeringClose.linger(server)
        close(server)

        // The server's side is shut for writing: the client sees the end of the answer at once.
        #expect(clientSeesTheEnd(client))
        // Far more than a socket buffer holds arrives, since it is read and thrown away.
        var sent = 0
        #expect(await eventually {
            while case let taken = send(64 * 1024, on: client), taken > 0 { sent += taken }
            return sent >= 16 * 1024 * 1024
        })
        #expect(lingeringClose.count == 1)
        shutdown(client, Int32(SHUT_WR))
        #expect(await eventually { lingeringClose.count == 0 })
        #expect(send(1, on: client) < 0, "the lingering socket is closed")
    }

    @Test func aClientThatNeverStopsSendingIsCutAfterTheDuration() async throws {
        let lingeringClose = LingeringClose(duration: 0.3)
        defer { lingeringClose.stop() }
        let (server, client) = try socketPair()
        defer { close(client) }
        lingeringClose.linger(server)
        close(server)
        #expect(lingeringClose.count == 1)
        #expect(await eventually {
            _ = send(1024, on: client)
            return lingeringClose.count == 0
        })
        #expect(send(1, on: client) < 0)
    }

    @Test func beyondItsCapacityAndOnceStoppedASocketClosesAtOnce() throws {
        let lingeringClose = LingeringClose(duration: 60, capacity: 1)
        let pairs = try (0..<3).map { _ in try socketPair() }
        defer { pairs.forEach { close($0.client) } }
        for (index, pair) in pairs.prefix(2).enumerated() {
            lingeringClose.linger(pair.server)
            close(pair.server)
            #expect(lingeringClose.count == 1, "socket \(index)")
        }
        #expect(send(1, on: pairs[0].client) == 1, "the first lingers")
        #expect(send(1, on: pairs[1].client) < 0, "the second, over capacity, was closed")

        lingeringClose.stop()
        #expect(lingeringClose.count == 0)
        #expect(send(1, on: pairs[0].client) < 0, "stopping closed the lingering socket")
        lingeringClose.linger(pairs[2].server)
        close(pairs[2].server)
        #expect(send(1, on: pairs[2].client) < 0, "a socket handed over after the stop was closed")
    }
}
