import Foundation

/// How long an operation waits before its next try: exponential backoff with full jitter,
/// capped, and never sooner than the server's `Retry-After`.
///
/// After `attempt` tries the wait is drawn uniformly from `0 ... min(maximumDelay, baseDelay ·
/// 2^(attempt-1))` ("full jitter": clients that failed together spread out instead of returning
/// together). A `Retry-After` (itself capped at `maximumRetryAfter`, so that a broken server
/// cannot park the outbox for days) is a floor the jitter is added to:
///
///     var random = SystemRandomNumberGenerator()
///     let wait = policy.delay(attempt: 3, retryAfter: .seconds(2), now: Date(), using: &random)
///     // 2 s ≤ wait ≤ 2 s + 4 s
///
/// The generator is a parameter so that tests can seed it.
public struct RetryPolicy: Sendable, Hashable {
    /// The ceiling of the first retry's wait.
    public var baseDelay: TimeInterval
    /// The largest ceiling, however many tries failed.
    public var maximumDelay: TimeInterval
    /// The longest `Retry-After` honoured; longer ones are cut to it.
    public var maximumRetryAfter: TimeInterval

    /// A policy; the defaults suit a desktop client: 1 s, doubling up to 5 minutes, and at most
    /// an hour for a server's `Retry-After`.
    public init(baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 300, maximumRetryAfter: TimeInterval = 3600) {
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.maximumRetryAfter = max(0, maximumRetryAfter)
    }

    /// The largest backoff after `attempt` tries (attempts below 1 count as 1).
    public func ceiling(attempt: Int) -> TimeInterval {
        // 2^62 seconds is past any cap; the exponent stops there so the product stays finite.
        let exponent = Double(min(max(attempt, 1) - 1, 62))
        return min(maximumDelay, baseDelay * pow(2, exponent))
    }

    /// A full-jitter backoff after `attempt` tries: uniform in `0 ... ceiling(attempt:)`.
    public func backoff<Random: RandomNumberGenerator>(attempt: Int, using random: inout Random) -> TimeInterval {
        let ceiling = ceiling(attempt: attempt)
        return ceiling > 0 ? Double.random(in: 0...ceiling, using: &random) : 0
    }

    /// The wait before the next try after `attempt` tries: the backoff, on top of the server's
    /// `Retry-After` when it sent one.
    public func delay<Random: RandomNumberGenerator>(
        attempt: Int, retryAfter: RetryAfter?, now: Date, using random: inout Random
    ) -> TimeInterval {
        let floor = retryAfter.map { min($0.delay(from: now), maximumRetryAfter) } ?? 0
        return floor + backoff(attempt: attempt, using: &random)
    }
}
