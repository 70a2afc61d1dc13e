import Foundation
import SyncClient
import SyncProtocol
import Testing
import Platform

/// Each transition of the per-operation state machine, with its effects.
@Suite struct OperationReducerTests {
    let reducer = OperationReducer(policy: RetryPolicy(baseDelay: 1, maximumDelay: 60, maximumRetryAfter: 600))
    let now = Date(timeIntervalSince1970: 1_900_000_000)
    let content = ArticlePayload(title: "Notes", body: "Words")

    func entry(_ state: OperationState, precondition: WritePrecondition? = .revision(4), change: OutboxChange? = nil) -> OutboxEntry {
        OutboxEntry(id: "op-1", articleID: "a1", sequence: 1, change: change ?? .put(content), precondition: precondition, state: state)
    }

    var request: WriteRequest { WriteRequest(articleID: "a1", idempotencyKey: "op-1", action: .put(content, .revision(4))) }

    func reduce(_ entry: OutboxEntry, _ event: OperationEvent, seed: UInt64 = 1) -> OperationStep {
        var random = SeededGenerator(seed: seed)
        return reducer.reduce(entry, event, now: now, random: &random)
    }

    func article(_ revision: Int64) -> Article { Article(id: "a1", revision: revision, updatedAt: now, content: content) }

    @Test func theFirstSendFixesThePreconditionFromTheArticlesBase() {
        let step = reduce(entry(.pending, precondition: nil), .sendStarted(base: .revision(9)))
        #expect(step.entry.precondition == .revision(9) && step.entry.state == .sending(attempt: 1))
        #expect(step.effects == [.send(WriteRequest(articleID: "a1", idempotencyKey: "op-1", action: .put(content, .revision(9))))])
        // A precondition set before (a conflict resolution's) is kept.
        #expect(reduce(entry(.pending), .sendStarted(base: .revision(9))).effects == [.send(request)])
    }

    @Test func aDeleteOfAnArticleTheServerNeverHeldNeedsNoRequest() {
        let step = reduce(entry(.pending, precondition: nil, change: .delete), .sendStarted(base: .absent))
        #expect(step.entry.state == .acknowledged(revision: nil))
        #expect(step.effects == [.acknowledge(.deleted(tombstone: nil))])
        let delete = reduce(entry(.pending, precondition: nil, change: .delete), .sendStarted(base: .revision(3)))
        #expect(delete.effects == [.send(WriteRequest(articleID: "a1", idempotencyKey: "op-1", action: .delete(base: 3)))])
    }

    @Test func answersEndTheOperationOrScheduleItsRetry() {
        let sending = entry(.sending(attempt: 3))
        let applied = reduce(sending, .answered(.applied(.live(article(5)), replayed: false)))
        #expect(applied.entry.state == .acknowledged(revision: 5) && applied.effects == [.acknowledge(.live(article(5)))])

        let current = ArticleChange(cursor: 6, id: "a1", revision: 6, deleted: true, changedAt: now, article: nil)
        let conflict = reduce(sending, .answered(.conflict(current: current)))
        #expect(conflict.entry.state == .conflicted && conflict.effects == [.recordConflict(current: current)])

        let rejection = RequestRejection(reason: .tooLarge, status: 413)
        let rejected = reduce(sending, .answered(.rejected(rejection)))
        #expect(rejected.entry.state == .terminalFailure(rejection) && rejected.effects == [.reportFailure(rejection)])

        let unavailable = reduce(sending, .answered(.retry(RetryAdvice(status: 503, retryAfter: .seconds(10)))))
        guard case let .waitingRetry(3, next) = unavailable.entry.state else {
            Issue.record("503 waits to retry: \(unavailable.entry.state)")
            return
        }
        #expect(next >= now + 10 && next <= now + 10 + 4 && unavailable.effects == [.wakeUp(at: next)])

        let account = reduce(sending, .answered(.accountRejected(detail: "revoked")))
        #expect(account.entry.state == .waitingRetry(attempt: 3, next: now) && account.effects == [.stopForAccount(detail: "revoked")])
    }

    @Test func aRunningKeyIsRetriedShortlyWhateverTheFailuresBefore() {
        for seed in 1...200 as ClosedRange<UInt64> {
            let step = reduce(entry(.sending(attempt: 9)), .answered(.retry(RetryAdvice(status: 409, retryAfter: .seconds(1)))), seed: seed)
            guard case let .waitingRetry(9, next) = step.entry.state else {
                Issue.record("409 waits to retry")
                return
            }
            #expect(next >= now + 1 && next <= now + 2)
        }
    }

    @Test func aRequestThatNeverLeftIsSentAgainAndALostAnswerIsLookedUp() {
        let notSent = reduce(entry(.sending(attempt: 2)), .notSent)
        guard case let .waitingRetry(2, next) = notSent.entry.state else {
            Issue.record("not sent waits to retry")
            return
        }
        #expect(next <= now + 2 && notSent.effects == [.wakeUp(at: next)])
        let resend = reduce(notSent.entry, .retryDue)
        #expect(resend.entry.state == .sending(attempt: 3) && resend.effects == [.send(request)])

        let lost = reduce(entry(.sending(attempt: 2)), .outcomeLost)
        guard case let .unknownOutcome(2, lookup) = lost.entry.state else {
            Issue.record("a lost answer is an unknown outcome")
            return
        }
        #expect(lost.effects == [.wakeUp(at: lookup)])
        let lookingUp = reduce(lost.entry, .retryDue)
        #expect(lookingUp.entry.state == .lookingUp(attempt: 3) && lookingUp.effects == [.lookUp(request)])
    }

    @Test func lookupsSettleTheOutcomeOrResendUnderTheSameKey() {
        let lookingUp = entry(.lookingUp(attempt: 4))
        let completed = reduce(lookingUp, .lookedUp(.completed(.applied(.live(article(7)), replayed: true))))
        #expect(completed.entry.state == .acknowledged(revision: 7) && completed.effects == [.acknowledge(.live(article(7)))])
        #expect(reduce(lookingUp, .lookedUp(.completed(.conflict(current: nil)))).entry.state == .conflicted)

        for never in [WriteLookup.neverApplied, .rejected(RequestRejection(reason: .invalidRequest, status: 400))] {
            let resend = reduce(lookingUp, .lookedUp(never))
            #expect(resend.entry.state == .sending(attempt: 5) && resend.effects == [.send(request)])
        }

        let running = reduce(lookingUp, .lookedUp(.running(retryAfter: nil)))
        guard case let .unknownOutcome(4, next) = running.entry.state else {
            Issue.record("running is looked up again")
            return
        }
        #expect(next <= now + 1 && running.effects == [.wakeUp(at: next)])

        for failure in [OperationEvent.lookupFailed, .lookedUp(.retry(RetryAdvice(status: 503)))] {
            guard case .unknownOutcome(4, _) = reduce(lookingUp, failure).entry.state else {
                Issue.record("\(failure) is looked up again later")
                continue
            }
        }
        let account = reduce(lookingUp, .lookedUp(.accountRejected(detail: nil)))
        #expect(account.entry.state == .unknownOutcome(attempt: 4, nextLookup: now) && account.effects == [.stopForAccount(detail: nil)])
    }

    @Test func aNewLeaseHolderLooksUpWhatWasOnTheWire() {
        for state in [OperationState.sending(attempt: 2), .lookingUp(attempt: 2)] {
            let step = reduce(entry(state), .resumed)
            #expect(step.entry.state == .unknownOutcome(attempt: 2, nextLookup: now) && step.effects == [.wakeUp(at: now)])
        }
        let waiting = entry(.waitingRetry(attempt: 1, next: now + 30))
        #expect(reduce(waiting, .resumed) == OperationStep(entry: waiting, effects: [.wakeUp(at: now + 30)]))
        #expect(reduce(entry(.pending), .resumed).effects.isEmpty)

        for state in [OperationState.pending, .sending(attempt: 1), .unknownOutcome(attempt: 1, nextLookup: now)] {
            #expect(reduce(entry(state), .leaseLost) == OperationStep(entry: entry(state), effects: [.relinquish]))
        }
        #expect(reduce(entry(.acknowledged(revision: 5)), .leaseLost).effects.isEmpty)
    }

    @Test func eventsThatDoNotApplyChangeNothing() {
        let cases: [(OperationState, OperationEvent)] = [
            (.pending, .answered(.applied(.live(article(5)), replayed: false))),
            (.sending(attempt: 1), .sendStarted(base: .absent)),
            (.sending(attempt: 1), .retryDue),
            (.acknowledged(revision: 5), .retryDue),
            (.conflicted, .answered(.conflict(current: nil))),
            (.waitingRetry(attempt: 1, next: now), .lookedUp(.neverApplied)),
            (.unknownOutcome(attempt: 1, nextLookup: now), .outcomeLost),
        ]
        for (state, event) in cases {
            #expect(reduce(entry(state), event) == OperationStep(entry: entry(state), effects: []), "\(state) \(event)")
        }
    }

    @Test func aSentEntryWithoutAPreconditionFailsVisibly() {
        let step = reduce(entry(.waitingRetry(attempt: 1, next: now), precondition: nil), .retryDue)
        guard case let .terminalFailure(rejection) = step.entry.state else {
            Issue.record("a broken row must not be sent under another fingerprint")
            return
        }
        #expect(rejection.reason == .refusedBeforeSending && step.effects == [.reportFailure(rejection)])
    }

    @Test func transportResultsBecomeEvents() {
        let failure = TransportFailure(method: "PUT", path: "/v1/articles/a1", reason: "test")
        #expect(OperationEvent.sendFinished(.failure(.notSent(failure))) == .notSent)
        #expect(OperationEvent.sendFinished(.failure(.outcomeUnknown(failure))) == .outcomeLost)
        #expect(OperationEvent.sendFinished(.failure(.invalidAnswer(failure))) == .outcomeLost)
        #expect(OperationEvent.sendFinished(.success(.conflict(current: nil))) == .answered(.conflict(current: nil)))
        #expect(OperationEvent.lookupFinished(.failure(.notSent(failure))) == .lookupFailed)
        #expect(OperationEvent.lookupFinished(.success(.neverApplied)) == .lookedUp(.neverApplied))
    }
}
