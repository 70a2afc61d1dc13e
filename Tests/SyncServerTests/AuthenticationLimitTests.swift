import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// Failed authentications slow down the address that makes them, never the account.
@Suite struct AuthenticationLimitTests {
    @Test func anAddressThatKeepsGuessingGets429AndTheWriterElsewhereIsServed() throws {
        let server = try TestServer { $0.authenticationFailuresPerMinute = 5 }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let attacker = LoopbackClient(port: server.port, token: "qtk_guess", from: "127.0.0.2")
        for _ in 0..<5 { #expect(try attacker.send("GET", SyncPath.changes).status == 401) }
        let limited = try attacker.send("GET", SyncPath.changes)
        #expect(limited.status == 429 && limited.problem?.type == .rateLimited)
        #expect((1...12).contains(Int(limited.header(SyncHeader.retryAfter) ?? "") ?? 0))
        // Not even the right token is looked at from there meanwhile.
        attacker.token = token
        #expect(try attacker.send("GET", SyncPath.changes).status == 429)

        // The writer, elsewhere, is not locked out; nor is an address that sends no token at all.
        #expect(try LoopbackClient(port: server.port, token: token, from: "127.0.0.3").send("GET", SyncPath.changes).status == 200)
        let anonymous = LoopbackClient(port: server.port, from: "127.0.0.4")
        for _ in 0..<8 { #expect(try anonymous.send("GET", SyncPath.changes).status == 401) }
        #expect(try server.client(nil).send("GET", SyncPath.health).status == 200)
    }

    @Test func behindATrustedProxyTheForwardedClientIsCounted() throws {
        let server = try TestServer {
            $0.authenticationFailuresPerMinute = 3
            $0.trustedProxies = [try AddressRange(parsing: "127.0.0.1")]
        }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let proxy = LoopbackClient(port: server.port, token: "qtk_guess")
        let guessing = ["X-Forwarded-For": "203.0.113.9"]
        for _ in 0..<3 { #expect(try proxy.send("GET", SyncPath.changes, headers: guessing).status == 401) }
        #expect(try proxy.send("GET", SyncPath.changes, headers: guessing).status == 429)
        proxy.token = token
        #expect(try proxy.send("GET", SyncPath.changes, headers: ["X-Forwarded-For": "203.0.113.10"]).status == 200)

        // A peer that is not a trusted proxy cannot shift the blame with the header.
        let spoofer = LoopbackClient(port: server.port, token: "qtk_guess", from: "127.0.0.2")
        for index in 0..<3 {
            #expect(try spoofer.send("GET", SyncPath.changes, headers: ["X-Forwarded-For": "198.51.100.\(index)"]).status == 401)
        }
        #expect(try spoofer.send("GET", SyncPath.changes, headers: ["X-Forwarded-For": "198.51.100.9"]).status == 429)
    }
}
