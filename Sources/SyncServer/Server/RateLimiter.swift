import Foundation
import Synchronization

/// A token bucket per key (an account, a client address): `rate` tokens a second on average,
/// bursts up to `burst`.
///
/// Held in the process: exact for one process. Several processes on one PostgreSQL share the
/// accounts' buckets in the database instead (`SyncStorage.takeRequestToken`).
final class RateLimiter<Key: Hashable & Sendable>: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: TimeInterval
    }

    private let rate: Double
    private let burst: Double
    private let buckets = Mutex<[Key: Bucket]>([:])
    /// Past this many buckets, full ones are dropped (a full bucket is what a new one would be).
    private let prunedPast: Int

    init(rate: Double, burst: Double, prunedPast: Int = 10_000) {
        self.rate = rate
        self.burst = burst
        self.prunedPast = prunedPast
    }

    /// Takes a token for `key`; when none is left, answers the whole seconds until one is.
    func admit(_ key: Key, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Int? {
        buckets.withLock { buckets in
            var bucket = refilled(buckets[key], now: now)
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return wait(for: bucket) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// When `key` has no token left, the whole seconds until it has one; nil otherwise. Takes
    /// nothing: for limits that only failures count against.
    func waitBeforeAdmitting(_ key: Key, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Int? {
        buckets.withLock { buckets in
            let bucket = refilled(buckets[key], now: now)
            return bucket.tokens >= 1 ? nil : wait(for: bucket)
        }
    }

    /// Takes a token for `key` if one is left, without asking to wait.
    func charge(_ key: Key, now: TimeInterval = ProcessInfo.processInfo.systemUptime) {
        buckets.withLock { buckets in
            if buckets.count > prunedPast {
                buckets = buckets.filter { refilled($0.value, now: now).tokens < burst }
            }
            var bucket = refilled(buckets[key], now: now)
            bucket.tokens = max(0, bucket.tokens - 1)
            buckets[key] = bucket
        }
    }

    private func refilled(_ bucket: Bucket?, now: TimeInterval) -> Bucket {
        guard let bucket else { return Bucket(tokens: burst, updated: now) }
        return Bucket(tokens: min(burst, bucket.tokens + max(0, now - bucket.updated) * rate), updated: now)
    }

    private func wait(for bucket: Bucket) -> Int { max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))) }
}
