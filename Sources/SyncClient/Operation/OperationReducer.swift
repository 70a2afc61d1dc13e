import Foundation

/// The per-operation state machine of the outbox, as a pure function: an entry and an event in,
/// the entry's next state and the effects to perform out. It reads no clock and no store; `now`
/// and the random source for the jitter are parameters, so a seeded run is reproducible.
///
///     var random = SystemRandomNumberGenerator()
///     let step = reducer.reduce(entry, .sendStarted(base: .revision(41)), now: Date(), random: &random)
///     // step.entry.state == .sending(attempt: 1), step.effects == [.send(request)]
///
/// Its rules, which the worker relies on:
/// - Every send and lookup of an entry uses `entry.request`: its ID as idempotency key and the
///   precondition fixed at the first send. A lost answer is resolved by a lookup or a resend
///   under the same key, never by a fresh operation, so the server applies a write at most once.
/// - Retryable failures wait (`RetryPolicy`) and try again, for as long as it takes; only the
///   answers `AnswerClass` calls terminal end an operation as `terminalFailure`.
/// - A 401 stops the worker (`stopForAccount`) and keeps the operation for the next one.
public struct OperationReducer: Sendable, Hashable {
    /// The waits between tries.
    public var policy: RetryPolicy

    /// A reducer with `policy`.
    public init(policy: RetryPolicy = RetryPolicy()) {
        self.policy = policy
    }

    /// The step `event` causes for `entry` at `now`. Events that do not apply to the entry's state
    /// (a late answer, a retry of a final entry) return the entry unchanged and no effects.
    public func reduce<Random: RandomNumberGenerator>(
        _ entry: OutboxEntry, _ event: OperationEvent, now: Date, random: inout Random
    ) -> OperationStep {
        var entry = entry
        switch (entry.state, event) {
        case let (.pending, .sendStarted(base)):
            if entry.precondition == nil { entry.precondition = base }
            if case .delete = entry.change, entry.precondition == .absent {
                // The server never held the article: the delete is done without a request.
                entry.state = .acknowledged(revision: nil)
                return OperationStep(entry: entry, effects: [.acknowledge(.deleted(tombstone: nil))])
            }
            return send(entry, attempt: 1)

        case let (.waitingRetry(attempt, _), .retryDue):
            return send(entry, attempt: attempt + 1)

        case let (.unknownOutcome(attempt, _), .retryDue):
            guard let request = entry.request else { return corrupt(entry) }
            entry.state = .lookingUp(attempt: attempt + 1)
            return OperationStep(entry: entry, effects: [.lookUp(request)])

        case let (.sending(attempt), .answered(answer)):
            return settle(entry, answer, attempt: attempt, now: now, random: &random)

        case let (.sending(attempt), .notSent):
            return wait(entry, then: .resend, attempt: attempt, now: now, random: &random)

        case let (.sending(attempt), .outcomeLost):
            return wait(entry, then: .lookUp, attempt: attempt, now: now, random: &random)

        case let (.lookingUp(attempt), .lookedUp(lookup)):
            return resolve(entry, lookup, attempt: attempt, now: now, random: &random)

        case let (.lookingUp(attempt), .lookupFailed):
            return wait(entry, then: .lookUp, attempt: attempt, now: now, random: &random)

        case (let state, .leaseLost) where !state.isFinal:
            return OperationStep(entry: entry, effects: [.relinquish])

        case let (.sending(attempt), .resumed), let (.lookingUp(attempt), .resumed):
            // Whatever was on the wire may have reached the server: find out before anything else.
            entry.state = .unknownOutcome(attempt: attempt, nextLookup: now)
            return OperationStep(entry: entry, effects: [.wakeUp(at: now)])

        case let (.waitingRetry(_, time), .resumed), let (.unknownOutcome(_, time), .resumed):
            return OperationStep(entry: entry, effects: [.wakeUp(at: time)])

        default:
            return OperationStep(entry: entry, effects: [])
        }
    }

    /// Puts the entry on the wire: `sending` and the send effect.
    private func send(_ entry: OutboxEntry, attempt: Int) -> OperationStep {
        guard let request = entry.request else { return corrupt(entry) }
        var entry = entry
        entry.state = .sending(attempt: attempt)
        return OperationStep(entry: entry, effects: [.send(request)])
    }

    /// The state an answer to a send (or the stored answer a lookup found) leads to.
    private func settle<Random: RandomNumberGenerator>(
        _ entry: OutboxEntry, _ answer: WriteAnswer, attempt: Int, now: Date, random: inout Random
    ) -> OperationStep {
        var entry = entry
        switch answer {
        case let .applied(version, _):
            entry.state = .acknowledged(revision: version.revision)
            return OperationStep(entry: entry, effects: [.acknowledge(version)])
        case let .conflict(current):
            entry.state = .conflicted
            return OperationStep(entry: entry, effects: [.recordConflict(current: current)])
        case let .retry(advice):
            // "Still running" asks for a short wait, not one that grows with the failures.
            return wait(entry, then: .resend, attempt: attempt, backoffAttempt: advice.isOperationInProgress ? 1 : attempt,
                        retryAfter: advice.retryAfter, now: now, random: &random)
        case let .rejected(rejection):
            entry.state = .terminalFailure(rejection)
            return OperationStep(entry: entry, effects: [.reportFailure(rejection)])
        case let .accountRejected(detail):
            // Nothing was written: the next worker (signed in again) sends it at once.
            entry.state = .waitingRetry(attempt: attempt, next: now)
            return OperationStep(entry: entry, effects: [.stopForAccount(detail: detail)])
        }
    }

    /// The state a lookup's answer leads to.
    private func resolve<Random: RandomNumberGenerator>(
        _ entry: OutboxEntry, _ lookup: WriteLookup, attempt: Int, now: Date, random: inout Random
    ) -> OperationStep {
        switch lookup {
        case let .completed(answer):
            return settle(entry, answer, attempt: attempt, now: now, random: &random)
        case let .running(retryAfter):
            return wait(entry, then: .lookUp, attempt: attempt, backoffAttempt: 1, retryAfter: retryAfter,
                        now: now, random: &random)
        case .neverApplied, .rejected:
            // Never applied, or the lookup cannot tell: a resend under the same key is safe in
            // every case and its answer settles the outcome.
            return send(entry, attempt: attempt + 1)
        case let .retry(advice):
            return wait(entry, then: .lookUp, attempt: attempt, retryAfter: advice.retryAfter, now: now, random: &random)
        case let .accountRejected(detail):
            var entry = entry
            entry.state = .unknownOutcome(attempt: attempt, nextLookup: now)
            return OperationStep(entry: entry, effects: [.stopForAccount(detail: detail)])
        }
    }

    /// What a waiting operation does when its time comes.
    private enum Next {
        /// Send again (`waitingRetry`).
        case resend
        /// Look the key up (`unknownOutcome`).
        case lookUp
    }

    /// Waits the policy's delay after `attempt` tries (the backoff computed for `backoffAttempt`
    /// when that differs), then does `next`.
    private func wait<Random: RandomNumberGenerator>(
        _ entry: OutboxEntry, then next: Next, attempt: Int, backoffAttempt: Int? = nil, retryAfter: RetryAfter? = nil,
        now: Date, random: inout Random
    ) -> OperationStep {
        var entry = entry
        let time = now + policy.delay(attempt: backoffAttempt ?? attempt, retryAfter: retryAfter, now: now, using: &random)
        switch next {
        case .resend: entry.state = .waitingRetry(attempt: attempt, next: time)
        case .lookUp: entry.state = .unknownOutcome(attempt: attempt, nextLookup: time)
        }
        return OperationStep(entry: entry, effects: [.wakeUp(at: time)])
    }

    /// An entry that was sent but has no request (no precondition): a store that lost a column.
    /// It cannot be resent under the same fingerprint, so it fails visibly instead of silently.
    private func corrupt(_ entry: OutboxEntry) -> OperationStep {
        var entry = entry
        let rejection = RequestRejection(
            reason: .refusedBeforeSending, status: nil,
            detail: "operation \(entry.id) of article \(entry.articleID) is \(entry.state.kind.rawValue) but has no precondition")
        entry.state = .terminalFailure(rejection)
        return OperationStep(entry: entry, effects: [.reportFailure(rejection)])
    }
}
