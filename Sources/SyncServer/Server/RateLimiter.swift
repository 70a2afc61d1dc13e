import Foundation
import Synchronization

/// A token bucket per account: `rate` requests per second on average, bursts up to `burst`.
///
/// This is the one piece of state a server process keeps outside storage. It guards the process,
/// not the data: with several processes behind a balancer each one applies the limit on its own.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: TimeInterval
    }

    private let rate: Double
    private let burst: Double
    private let buckets = Mutex<[AccountID: Bucket]>([:])

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
    }

    /// Takes a token for `account`; when none is left, answers the whole seconds until one is.
    func admit(_ account: AccountID, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[account] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[account] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }
}
