import Foundation
import SyncClient
import Testing
import Platform

/// Backoff bounds, full jitter, the cap and `Retry-After`, over many seeded draws.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(baseDelay: 1, maximumDelay: 60, maximumRetryAfter: 600)
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    @Test func theCeilingDoublesUpToTheCap() {
        #expect((0...9).map { policy.ceiling(attempt: $0) } == [1, 1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(policy.ceiling(attempt: .max) == 60)
        #expect(RetryPolicy(baseDelay: 0).ceiling(attempt: 5) == 0)
    }

    @Test func fullJitterStaysWithinTheCeilingAndSpreadsOverIt() {
        var random = SeededGenerator(seed: 7)
        for attempt in [1, 3, 6, 10, 1000] {
            let ceiling = policy.ceiling(attempt: attempt)
            let draws = (0..<2000).map { _ in policy.backoff(attempt: attempt, using: &random) }
            #expect(draws.allSatisfy { (0...ceiling).contains($0) })
            // Full jitter, not equal jitter: waits near zero and near the ceiling both occur.
            #expect(draws.contains { $0 < ceiling * 0.05 } && draws.contains { $0 > ceiling * 0.95 })
            let mean = draws.reduce(0, +) / Double(draws.count)
            #expect(abs(mean - ceiling / 2) < ceiling * 0.05)
        }
    }

    @Test func theSameSeedGivesTheSameWaits() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        let a = (1...20).map { policy.delay(attempt: $0, retryAfter: nil, now: now, using: &first) }
        let b = (1...20).map { policy.delay(attempt: $0, retryAfter: nil, now: now, using: &second) }
        #expect(a == b)
    }

    @Test func retryAfterIsAFloorUnderTheJitterAndIsCapped() {
        var random = SeededGenerator(seed: 3)
        for _ in 0..<500 {
            let attempt = Int.random(in: 1...12, using: &random)
            let ceiling = policy.ceiling(attempt: attempt)
            let seconds = policy.delay(attempt: attempt, retryAfter: .seconds(5), now: now, using: &random)
            #expect(seconds >= 5 && seconds <= 5 + ceiling)
            let dated = policy.delay(attempt: attempt, retryAfter: .date(now + 30), now: now, using: &random)
            #expect(dated >= 30 && dated <= 30 + ceiling)
            let past = policy.delay(attempt: attempt, retryAfter: .date(now - 30), now: now, using: &random)
            #expect(past >= 0 && past <= ceiling)
            let huge = policy.delay(attempt: attempt, retryAfter: .seconds(10_000_000), now: now, using: &random)
            #expect(huge >= 600 && huge <= 600 + ceiling)
        }
    }

    @Test func retryAfterReadsSecondsAndEveryHTTPDateForm() {
        #expect(RetryAfter(headerValue: "120") == .seconds(120))
        #expect(RetryAfter(headerValue: " 0 ") == .seconds(0))
        let date = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter(headerValue: "Sun, 06 Nov 1994 08:49:37 GMT") == .date(date))
        #expect(RetryAfter(headerValue: "Sunday, 06-Nov-94 08:49:37 GMT") == .date(date))
        #expect(RetryAfter(headerValue: "Sun Nov  6 08:49:37 1994") == .date(date))
        for invalid in ["", "-1", "1.5", "soon", "99999999999999999999999", "Sun, 06 Nov 1994"] {
            #expect(RetryAfter(headerValue: invalid) == nil, "\(invalid)")
        }
        #expect(RetryAfter.date(date).delay(from: date - 10) == 10)
        #expect(RetryAfter.date(date).delay(from: date + 10) == 0)
    }
}
