@testable import SyncServer
import Testing

@Suite struct RateLimiterTests {
    @Test func allowsABurstThenAsksToWaitUntilATokenIsBack() {
        let limiter = RateLimiter<AccountID>(rate: 2, burst: 4)
        let account = AccountID(rawValue: 1)
        for _ in 0..<4 { #expect(limiter.admit(account, now: 100) == nil) }
        #expect(limiter.admit(account, now: 100) == 1)
        #expect(limiter.admit(account, now: 100.5) == nil)
        #expect(limiter.admit(account, now: 100.5) == 1)
    }

    @Test func keysHaveBucketsOfTheirOwn() {
        let limiter = RateLimiter<AccountID>(rate: 0.1, burst: 1)
        #expect(limiter.admit(AccountID(rawValue: 1), now: 0) == nil)
        #expect(limiter.admit(AccountID(rawValue: 1), now: 0) == 10)
        #expect(limiter.admit(AccountID(rawValue: 2), now: 0) == nil)
    }

    @Test func onlyChargesCountWhenAskingWhetherToWait() {
        let limiter = RateLimiter<String>(rate: 1.0 / 60, burst: 3)
        for _ in 0..<10 { #expect(limiter.waitBeforeAdmitting("a", now: 0) == nil) }
        for _ in 0..<3 { limiter.charge("a", now: 0) }
        #expect(limiter.waitBeforeAdmitting("a", now: 0) == 60)
        #expect(limiter.waitBeforeAdmitting("a", now: 30) == 30)
        #expect(limiter.waitBeforeAdmitting("a", now: 60) == nil)
        #expect(limiter.waitBeforeAdmitting("b", now: 0) == nil)
    }

    @Test func fullBucketsArePrunedButEmptyOnesAreKept() {
        let limiter = RateLimiter<Int>(rate: 1, burst: 1, prunedPast: 2)
        for key in 0..<5 { limiter.charge(key, now: Double(key)) }
        // Key 4 was emptied last and is still empty; it must not have been forgotten.
        #expect(limiter.waitBeforeAdmitting(4, now: 4.5) == 1)
    }

    @Test func addressRangesAndClientKeys() throws {
        let loopback = try AddressRange(parsing: "127.0.0.0/8")
        #expect(loopback.contains("127.0.0.2") && !loopback.contains("128.0.0.1") && !loopback.contains("::1"))
        #expect(try AddressRange(parsing: "::1").contains("::1"))
        #expect(try AddressRange(parsing: "10.0.0.0/8").contains("::ffff:10.1.2.3"))
        #expect(try AddressRange(parsing: "fd00::/8").contains("fd12:3456::1"))
        #expect(try AddressRange(parsing: "10.1.2.3/30").description == "10.1.2.3/30")
        for bad in ["host", "10.0.0.0/33", "::/129", "1.2.3.4/x", ""] { #expect(throws: ServerError.self) { try AddressRange(parsing: bad) } }
        #expect(AddressRange.clientKey("203.0.113.9") == "203.0.113.9")
        #expect(AddressRange.clientKey("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(AddressRange.clientKey("2001:db8:1:2:bbbb::7") == AddressRange.clientKey("2001:db8:1:2:aaaa::1"))
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedProxies() throws {
        let proxies = [try AddressRange(parsing: "127.0.0.1"), try AddressRange(parsing: "10.0.0.0/8")]
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: "203.0.113.9", trusted: proxies) == "203.0.113.9")
        // Entries left of the first untrusted hop are the client's own claims.
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: "1.1.1.1, 203.0.113.9, 10.0.0.5", trusted: proxies)
            == "203.0.113.9")
        #expect(ClientAddress.resolve(peer: "198.51.100.1", forwardedFor: "203.0.113.9", trusted: proxies) == "198.51.100.1")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: nil, trusted: proxies) == "127.0.0.1")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: "not-an-address", trusted: proxies) == "127.0.0.1")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: "203.0.113.9", trusted: []) == "127.0.0.1")
    }
}
