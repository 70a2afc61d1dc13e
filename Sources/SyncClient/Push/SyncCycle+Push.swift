import Foundation
import Library
import ObjectGraph
import SyncProtocol

extension SyncCycle {
    /// What a push did.
    struct PushReport: Sendable, Hashable {
        /// Operations the server acknowledged.
        var acknowledged = 0
        /// Operations refused for good.
        var failed = 0
        /// What the 412s led to.
        var reconciled = RemoteChangeTally()
        /// Requests that got an answer, and requests that got none (not sent, lost, unreadable).
        var answered = 0
        var unanswered = 0
        /// The last request that got no answer, for the status's details.
        var lastFailure: TransportError?
        /// When the earliest waiting operation is due; nil when none waits.
        var nextWakeUp: Date?
    }

    /// Sends the outbox's ready operations, several at once (at most one per article, in order),
    /// persisting every transition with its effects, until nothing is ready. `expedite` sends
    /// waiting operations now instead of at their time (Sync now, the network came back); with
    /// `settling`, operations due within that many seconds are waited for instead of left waiting.
    ///
    /// Answers that arrive while a transaction commits are persisted together in the next one:
    /// each answer's transition still commits with its effects (an acknowledgement with the
    /// article's base) before any request that depends on it is sent, and an answer not yet
    /// persisted when the process dies leaves its operation `sending`, looked up on restart.
    func push(expedite: Bool, settling: TimeInterval? = nil) async throws -> PushReport {
        var report = PushReport()
        let limit = max(1, configuration.maximumInFlight)
        // Each waiting operation is sent early at most once per push: one that fails again waits.
        var expedited: Set<String>? = expedite ? [] : nil
        let arrived = ArrivedAnswers()
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Requests whose answers are not taken yet.
            var inFlight = 0
            var round = try await self.round(completing: [], capacity: limit, expediting: expedited)
            while true {
                if let stop = round.accountRejected { throw Stop.accountRejected(stop) }
                report.absorb(round)
                // Asked before the first write only: a push with nothing to send adds no request.
                let version = round.requests.isEmpty ? nil : await serverProtocol.version(asking: transport)
                for (operationID, effect) in round.requests {
                    inFlight += 1
                    expedited?.insert(operationID)
                    group.addTask { [transport, library = store.library] in
                        let (event, error) = await Self.perform(effect, with: transport, protocolVersion: version, library: library)
                        arrived.add(ArrivedAnswers.Answer(operationID: operationID, event: event, error: error))
                    }
                }
                if inFlight == 0 {
                    report.nextWakeUp = try await nextWakeUp()
                    guard let settling, let due = report.nextWakeUp, due.timeIntervalSinceNow <= settling else { break }
                    try await Task.sleep(for: .seconds(max(0, due.timeIntervalSinceNow)))
                    round = try await self.round(completing: [], capacity: limit, expediting: nil)
                    continue
                }
                // The wait is the group's: each request's task adds its answer before it ends, so
                // every end the group reports brings an answer, unless an earlier batch took it.
                var answers = arrived.takeAll()
                while answers.isEmpty, try await group.next() != nil {
                    answers = arrived.takeAll()
                }
                // Empty only when no request is left, which `inFlight` > 0 rules out.
                guard !answers.isEmpty else { break }
                inFlight -= answers.count
                for answer in answers { report.count(answer.event, answer.error) }
                // A new round once half the slots are free: each round reads the whole open outbox.
                // A stopping worker saves the answers it gets and sends nothing more: a request
                // started now would be cancelled at once, and its operation looked up later.
                let capacity = inFlight <= limit / 2 && !Task.isCancelled ? limit - inFlight : 0
                round = try await self.round(
                    completing: answers.map { ($0.operationID, $0.event) }, capacity: capacity, expediting: expedited)
            }
        }
        return report
    }

    /// When the earliest waiting operation is due; nil when none waits.
    func nextWakeUp() async throws -> Date? {
        try await store.read { context in
            let open = FetchRequest<SyncOperation>(
                predicate: .in(\.state, [SyncOperationState.pending, .sending, .waitingRetry, .unknownOutcome, .lookingUp, .conflicted]))
            return Outbox.nextWakeUp(try context.fetch(open).map { $0.position() })
        }
    }

    /// What one round left to do.
    struct Round: Sendable {
        var requests: [(operationID: String, effect: OperationEffect)] = []
        var accountRejected: String??
        var acknowledged = 0
        var failed = 0
        var reconciled = RemoteChangeTally()
    }

    /// One transaction: the answers to requests persisted with their effects, then, when there is
    /// `capacity`, the outbox coalesced and its ready heads started.
    private func round(
        completing answers: [(operationID: String, event: OperationEvent)], capacity: Int, expediting expedited: Set<String>?
    ) async throws -> Round {
        let reducer = reducer
        return try await store.write("push") { context, now in
            var random = SystemRandomNumberGenerator()
            let step = OutboxStep(context: context, now: now)
            var followup = OutboxStep.Followup()
            if !answers.isEmpty {
                var rows: [String: SyncOperation] = [:]
                for row in try context.fetch(FetchRequest<SyncOperation>(predicate: .in(\.operationID, answers.map(\.operationID)))) {
                    rows[row.operationID] = row
                }
                for (operationID, event) in answers {
                    guard let row = rows[operationID] else { continue }
                    try step.persist(reducer.reduce(try row.entry(), event, now: now, random: &random), row: row, into: &followup)
                }
            }
            if capacity > 0 {
                let open = FetchRequest<SyncOperation>(
                    predicate: \.state != SyncOperationState.acknowledged, sortDescriptors: [.ascending(\.sequence)])
                let openRows = try context.fetch(open)
                // The articles to send are chosen from the rows' places and states; only their
                // operations' content is read (row by row: a round holds a few; see the README's
                // round), coalesced and sent. The rest of the outbox is coalesced in the round
                // that sends its article.
                let chosen = Set(Self.choose(openRows.map { $0.position() }, capacity: capacity, at: now, expediting: expedited).map(\.articleID))
                var rows: [String: SyncOperation] = [:]
                var entries: [OutboxEntry] = []
                for row in openRows where chosen.contains(row.articleID.uuidString) {
                    rows[row.operationID] = row
                    do {
                        entries.append(try row.entry())
                    } catch let error as SyncStoreError {
                        // A row that cannot become a request fails visibly instead of blocking its article.
                        let rejection = RequestRejection(reason: .refusedBeforeSending, status: nil, detail: error.description)
                        var broken = OutboxEntry(id: row.operationID, articleID: row.articleID.uuidString, sequence: row.sequence, change: .delete)
                        broken.state = .terminalFailure(rejection)
                        row.state = .terminalFailure
                        row.failure = String(decoding: try JSONEncoder().encode(rejection), as: UTF8.self)
                        entries.append(broken)
                    }
                }
                let coalescing = Outbox.coalesce(entries)
                for entry in coalescing.rewritten { rows[entry.id]?.update(from: entry) }
                for id in coalescing.removed { if let row = rows[id] { context.delete(row) } }
                let ready = Self.choose(coalescing.entries, capacity: capacity, at: now, expediting: expedited)
                let articleIDs = ready.compactMap { UUID(uuidString: $0.articleID) }
                var bases: [String: Int64] = [:]
                for base in try context.fetch(FetchRequest<ArticleBase>(predicate: .in(\.articleID, articleIDs))) {
                    bases[base.articleID.uuidString] = base.revision
                }
                for head in ready {
                    guard let row = rows[head.id] else { continue }
                    let event: OperationEvent = head.state == .pending
                        ? .sendStarted(base: bases[head.articleID].map { .revision($0) } ?? .absent) : .retryDue
                    try step.persist(reducer.reduce(head, event, now: now, random: &random), row: row, into: &followup)
                }
            }
            return Round(
                requests: followup.requests, accountRejected: followup.accountRejected, acknowledged: followup.acknowledged,
                failed: followup.failed, reconciled: followup.reconciled)
        }
    }

    /// The heads to act on at `now`, at most `capacity`: the due ones, then, when `expedited` is
    /// given (Sync now, the network came back), waiting ones not yet sent early in this push.
    private static func choose<Entry: OutboxOrdered>(
        _ entries: [Entry], capacity: Int, at now: Date, expediting expedited: Set<String>?
    ) -> [Entry] {
        var chosen = Array(Outbox.ready(entries, at: now).prefix(capacity))
        guard let expedited, chosen.count < capacity else { return chosen }
        let due = Set(chosen.map(\.id))
        for head in Outbox.ready(entries, at: .distantFuture) where chosen.count < capacity {
            if !due.contains(head.id) && !expedited.contains(head.id) { chosen.append(head) }
        }
        return chosen
    }

    /// Makes the request, with the fields a server of `protocolVersion` knows and after the blobs
    /// its body refers to (``uploadBlobs(of:with:protocolVersion:library:)``), and turns its
    /// result into the event the reducer expects.
    private static func perform(
        _ effect: OperationEffect, with transport: any SyncTransport, protocolVersion: Int?, library: Library
    ) async -> (OperationEvent, TransportError?) {
        switch effect {
        case let .send(request):
            if let stop = await uploadBlobs(of: request, with: transport, protocolVersion: protocolVersion, library: library) {
                return stop
            }
            do throws(TransportError) {
                return (.answered(try await transport.send(request.forProtocol(protocolVersion))), nil)
            } catch {
                return (.sendFinished(.failure(error)), error)
            }
        case let .lookUp(request):
            do throws(TransportError) {
                return (.lookedUp(try await transport.lookUp(request)), nil)
            } catch {
                return (.lookupFinished(.failure(error)), error)
            }
        default:
            return (.retryDue, nil)
        }
    }
}

extension SyncCycle.PushReport {
    mutating func absorb(_ round: SyncCycle.Round) {
        acknowledged += round.acknowledged
        failed += round.failed
        reconciled = reconciled + round.reconciled
    }

    mutating func count(_ event: OperationEvent, _ error: TransportError?) {
        if let error {
            unanswered += 1
            lastFailure = error
        } else {
            answered += 1
        }
    }
}
