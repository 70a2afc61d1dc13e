@testable import SyncServer
import Testing

@Suite struct RateLimiterTests {
    @Test func allowsABurstThenAsksToWaitUntilATokenIsBack() {
        let limiter = RateLimiter(rate: 2, burst: 4)
        let account = AccountID(rawValue: 1)
        for _ in 0..<4 { #expect(limiter.admit(account, now: 100) == nil) }
        #expect(limiter.admit(account, now: 100) == 1)
        #expect(limiter.admit(account, now: 100.5) == nil)
        #expect(limiter.admit(account, now: 100.5) == 1)
    }

    @Test func accountsHaveBucketsOfTheirOwn() {
        let limiter = RateLimiter(rate: 0.1, burst: 1)
        #expect(limiter.admit(AccountID(rawValue: 1), now: 0) == nil)
        #expect(limiter.admit(AccountID(rawValue: 1), now: 0) == 10)
        #expect(limiter.admit(AccountID(rawValue: 2), now: 0) == nil)
    }
}
