import Foundation
import SyncClient
import SyncProtocol
import Platform

/// One seeded run of the outbox machinery against `ModelServer`, in virtual time: a writer edits
/// and deletes articles, another device edits them on the server, the network loses, delays and
/// duplicates requests and answers, the server is overloaded or slow, the worker crashes or loses
/// its lease and another one resumes. The worker is the smallest one the sync client's parts
/// allow: `Outbox.coalesce`, `Outbox.ready`, `OperationReducer` and the effects, with the store
/// as dictionaries. Conflicts are resolved as "keep mine" after a while.
///
/// After `chaosSteps` events the faults stop, and the run goes on until nothing is left to do.
/// `violations` lists every broken rule: lost operations, writes applied twice, requests that
/// changed under their key, more than one request of an article on the wire, divergence.
final class OutboxSimulation {
    struct Options {
        var seed: UInt64
        var chaosSteps = 10_000
        var articles = 6
        var policy = RetryPolicy(baseDelay: 1, maximumDelay: 30, maximumRetryAfter: 60)
        var timeout: TimeInterval = 10
    }

    /// What a finished run found.
    struct Outcome: Sendable {
        /// Every broken rule, with the seed and virtual time to replay it.
        var violations: [String]
        /// How often each interesting thing happened, to check that the run exercised the paths.
        var counts: [String: Int]
    }

    private var violations: [String] = []
    private var counts: [String: Int] = [:]

    private let options: Options
    private var random: SeededGenerator
    private let reducer: OperationReducer
    private var server = ModelServer(maximumBodyLength: 64)
    private var queue = EventQueue()
    private var now: TimeInterval = 0
    private let epoch = Date(timeIntervalSince1970: 1_900_000_000)
    private var chaos = true

    // The library: outbox rows, ArticleBase revisions (absent: the server holds no live copy
    // we know of), the writer's current version of each article (nil: deleted).
    private var entries: [String: OutboxEntry] = [:]
    private var bases: [String: Int64] = [:]
    private var local: [String: ArticlePayload?] = [:]
    private var conflicts: [String: ArticleChange?] = [:]
    private var nextSequence: Int64 = 0
    private var edits = 0

    // The worker: a generation per lease; answers to an older generation's requests are lost.
    private var generation = 0
    private var workerRunning = true
    private var nextToken = 0
    private var settled = Set<Int>()

    // Bookkeeping for the checks.
    private var created: [String] = []
    private var absorbedInto: [String: String] = [:]
    private var superseded = Set<String>()
    private var finals: [String: OperationState] = [:]
    private var firstRequests: [String: WriteRequest] = [:]
    private var lastEntry: [String: String] = [:]

    private init(_ options: Options) {
        self.options = options
        random = SeededGenerator(seed: options.seed)
        reducer = OperationReducer(policy: options.policy)
    }

    private var date: Date { epoch + now }

    private enum Event {
        case wake(generation: Int)
        case client(token: Int, generation: Int, entry: String, OperationEvent)
        case arrive(WriteRequest, reply: Reply?)
        case finish(WriteRequest, reply: Reply?)
        case lookupArrive(WriteRequest, reply: Reply)
        case edit
        case interfere
        case resolve(article: String)
        case crash
        case restart
    }

    /// Where a server's answer goes, and what the network does to it on the way.
    private struct Reply {
        var token: Int
        var generation: Int
        var entry: String
        var dropAnswer = false
        var invalidAnswer = false
    }

    // MARK: Running

    /// Runs the simulation once to its end.
    static func run(_ options: Options) -> Outcome {
        let simulation = OutboxSimulation(options)
        simulation.run()
        return Outcome(violations: simulation.violations, counts: simulation.counts)
    }

    private func run() {
        schedule(.edit, after: 0)
        schedule(.interfere, after: 5)
        schedule(.crash, after: 200)
        var steps = 0
        while let (time, event) = queue.pop() {
            now = time
            steps += 1
            if chaos && steps >= options.chaosSteps {
                chaos = false
                count("quiescence at \(steps)")
            }
            guard steps < options.chaosSteps + 200_000 else {
                violate("the outbox did not settle after the faults stopped")
                break
            }
            handle(event)
        }
        check()
    }

    private func handle(_ event: Event) {
        switch event {
        case let .wake(generation):
            guard generation == self.generation, workerRunning else { return }
            pushReady()
        case let .client(token, generation, entry, event):
            guard settled.insert(token).inserted else { return }
            guard generation == self.generation, workerRunning, entries[entry] != nil else {
                count("answer lost with its worker")
                return
            }
            if case let .answered(answer) = event { count(answerName(answer)) }
            if case let .lookedUp(lookup) = event { count("lookup: \(lookupName(lookup))") }
            apply(event, to: entry)
            // A final state frees the article's next entry: the worker looks again at once.
            pushReady()
        case let .arrive(request, reply):
            if let answer = server.claim(request) {
                deliver(.answered(answer), reply, after: 0.002)
            } else {
                // Usually quick; sometimes slower than the client waits, so lookups see it running.
                let slow = chaos && Double.random(in: 0..<1, using: &random) < 0.05
                schedule(.finish(request, reply: reply), after: slow ? Double.random(in: 5...25, using: &random) : 0.005)
            }
        case let .finish(request, reply):
            deliver(.answered(server.apply(request)), reply, after: 0.002)
        case let .lookupArrive(request, reply):
            deliver(.lookedUp(server.lookup(request.idempotencyKey)), reply, after: 0.002)
        case .edit:
            edit()
            if chaos { schedule(.edit, after: Double.random(in: 0...3, using: &random)) }
        case .interfere:
            interfere()
            if chaos { schedule(.interfere, after: Double.random(in: 10...60, using: &random)) }
        case let .resolve(article):
            resolve(article)
        case .crash:
            guard chaos else { return }
            if workerRunning { loseLease() }
            schedule(.crash, after: Double.random(in: 100...400, using: &random))
        case .restart:
            resume()
        }
    }

    // MARK: The worker

    private func pushReady() {
        let coalescing = Outbox.coalesce(Array(entries.values))
        for entry in coalescing.rewritten { entries[entry.id] = entry }
        for id in coalescing.removed {
            absorbedInto[id] = coalescing.absorbedInto[id]
            entries[id] = nil
            count("coalesced")
        }
        for head in Outbox.ready(Array(entries.values), at: date) {
            if head.state == .pending {
                apply(.sendStarted(base: bases[head.articleID].map { .revision($0) } ?? .absent), to: head.id)
            } else {
                apply(.retryDue, to: head.id)
            }
        }
    }

    /// The reducer's step for the entry, persisted, then its effects performed.
    private func apply(_ event: OperationEvent, to id: String) {
        guard let entry = entries[id] else { return }
        let step = reducer.reduce(entry, event, now: date, random: &random)
        if !entry.state.isFinal, step.entry.state.isFinal { finals[id] = step.entry.state }
        // The store deletes an acknowledged row with the acknowledgement; the others stay.
        entries[id] = step.entry.state.kind == .acknowledged ? nil : step.entry
        if step.entry.state.kind == .unknownOutcome, entry.state.kind != .unknownOutcome { count("unknown outcome") }
        for effect in step.effects { perform(effect, for: step.entry) }
    }

    private func perform(_ effect: OperationEffect, for entry: OutboxEntry) {
        switch effect {
        case let .send(request):
            checkRequest(request, of: entry)
            send(request, of: entry)
        case let .lookUp(request):
            checkRequest(request, of: entry)
            lookUp(request, of: entry)
        case let .wakeUp(time):
            schedule(.wake(generation: generation), after: max(0, time.timeIntervalSince(date)))
        case let .acknowledge(version):
            if case let .live(article) = version {
                bases[entry.articleID] = article.revision
            } else {
                bases[entry.articleID] = nil
            }
            count("acknowledged")
        case let .recordConflict(current):
            conflicts[entry.articleID] = current
            count("conflict")
            schedule(.resolve(article: entry.articleID), after: Double.random(in: 0...10, using: &random))
        case .reportFailure:
            count("terminal failure")
        case .stopForAccount:
            count("account rejected")
            stopWorker()
        case .relinquish:
            violate("relinquish outside a lease loss for \(entry.id)")
        }
    }

    /// Every request of an entry is the same: its ID as key, its first precondition. And only
    /// the article's head is ever on the wire.
    private func checkRequest(_ request: WriteRequest, of entry: OutboxEntry) {
        if request.idempotencyKey != entry.id || request.articleID != entry.articleID {
            violate("entry \(entry.id) sent as \(request.idempotencyKey) for \(request.articleID)")
        }
        if let first = firstRequests[entry.id], first != request {
            violate("entry \(entry.id) changed its request: \(first) then \(request)")
        }
        firstRequests[entry.id] = request
        let onTheWire = entries.values.filter { $0.articleID == entry.articleID && $0.state.isInFlight }
        if onTheWire.count > 1 { violate("article \(entry.articleID) has \(onTheWire.count) requests on the wire") }
    }

    private func send(_ request: WriteRequest, of entry: OutboxEntry) {
        count("send")
        let token = startRequest(entry, timeoutEvent: .outcomeLost)
        var reply = Reply(token: token, generation: generation, entry: entry.id)
        let fate = chaos ? Double.random(in: 0..<1, using: &random) : 1
        switch fate {
        case ..<0.07:
            count("fault: not sent")
            schedule(.client(token: token, generation: generation, entry: entry.id, .notSent), after: 0.001)
        case ..<0.13:
            count("fault: request dropped")
        case ..<0.19:
            count("fault: answer dropped")
            reply.dropAnswer = true
            schedule(.arrive(request, reply: reply), after: 0.001)
        case ..<0.24:
            count("fault: delayed past the timeout")
            schedule(.arrive(request, reply: reply), after: options.timeout + Double.random(in: 0...20, using: &random))
        case ..<0.29:
            count("fault: duplicated")
            schedule(.arrive(request, reply: nil), after: Double.random(in: 0...0.01, using: &random))
            schedule(.arrive(request, reply: reply), after: Double.random(in: 0...0.01, using: &random))
        case ..<0.35:
            count("fault: overloaded")
            let retryAfter: RetryAfter? = [nil, .seconds(Int.random(in: 0...5, using: &random)), .date(date + 3)]
                .randomElement(using: &random)!
            let advice = RetryAdvice(status: Bool.random(using: &random) ? 429 : 503, retryAfter: retryAfter)
            schedule(.client(token: token, generation: generation, entry: entry.id, .answered(.retry(advice))), after: 0.002)
        case ..<0.38:
            count("fault: invalid answer")
            reply.invalidAnswer = true
            schedule(.arrive(request, reply: reply), after: 0.001)
        case ..<0.385:
            count("fault: token refused")
            schedule(.client(token: token, generation: generation, entry: entry.id, .answered(.accountRejected(detail: nil))), after: 0.002)
        default:
            schedule(.arrive(request, reply: reply), after: 0.001)
        }
    }

    private func lookUp(_ request: WriteRequest, of entry: OutboxEntry) {
        count("lookup")
        let token = startRequest(entry, timeoutEvent: .lookupFailed)
        let fate = chaos ? Double.random(in: 0..<1, using: &random) : 1
        switch fate {
        case ..<0.08:
            schedule(.client(token: token, generation: generation, entry: entry.id, .lookupFailed), after: 0.001)
        case ..<0.12:
            count("fault: lookup dropped")
        case ..<0.17:
            let advice = RetryAdvice(status: 503, retryAfter: .seconds(Int.random(in: 1...5, using: &random)))
            schedule(.client(token: token, generation: generation, entry: entry.id, .lookedUp(.retry(advice))), after: 0.002)
        default:
            schedule(.lookupArrive(request, reply: Reply(token: token, generation: generation, entry: entry.id)), after: 0.001)
        }
    }

    /// A new request token whose client gives up at the timeout with `timeoutEvent`.
    private func startRequest(_ entry: OutboxEntry, timeoutEvent: OperationEvent) -> Int {
        nextToken += 1
        schedule(.client(token: nextToken, generation: generation, entry: entry.id, timeoutEvent), after: options.timeout)
        return nextToken
    }

    private func deliver(_ event: OperationEvent, _ reply: Reply?, after delay: TimeInterval) {
        guard let reply, !reply.dropAnswer else { return }
        if case let .answered(.rejected(rejection)) = event, rejection.reason == .idempotencyKeyReused {
            violate("the server saw entry \(reply.entry)'s key with another request")
        }
        let event: OperationEvent = reply.invalidAnswer ? .sendFinished(.failure(.invalidAnswer(
            TransportFailure(method: "PUT", path: "/", status: 200, reason: "simulated")))) : event
        schedule(.client(token: reply.token, generation: reply.generation, entry: reply.entry, event), after: delay)
    }

    /// The lease is lost: the worker is told, stops, and another takes over later.
    private func loseLease() {
        count("lease lost")
        for entry in entries.values where !entry.state.isFinal {
            let step = reducer.reduce(entry, .leaseLost, now: date, random: &random)
            if step.entry != entry || step.effects != [.relinquish] {
                violate("leaseLost for \(entry.id) gave \(step)")
            }
        }
        stopWorker()
    }

    private func stopWorker() {
        generation += 1
        workerRunning = false
        schedule(.restart, after: Double.random(in: 1...30, using: &random))
    }

    /// A worker takes the lease: every open entry resumes as the store holds it.
    private func resume() {
        guard !workerRunning else { return }
        count("resume")
        workerRunning = true
        for id in entries.keys.sorted() where !(entries[id]?.state.isFinal ?? true) {
            apply(.resumed, to: id)
        }
        schedule(.wake(generation: generation), after: 0)
    }

    // MARK: The writer and the other device

    private func edit() {
        let article = "art-\(Int.random(in: 0..<options.articles, using: &random))"
        edits += 1
        let change: OutboxChange
        if let existing = local[article], existing != nil, Double.random(in: 0..<1, using: &random) < 0.15 {
            local[article] = .some(nil)
            change = .delete
        } else {
            // Bodies are unique per edit; now and then one is too large for the server.
            let oversize = Double.random(in: 0..<1, using: &random) < 0.02
            let body = "edit-\(edits)" + (oversize ? String(repeating: "x", count: 80) : "")
            let content = ArticlePayload(title: article, body: body)
            local[article] = .some(content)
            change = .put(content)
        }
        nextSequence += 1
        let id = "op-\(nextSequence)"
        entries[id] = OutboxEntry(id: id, articleID: article, sequence: nextSequence, change: change)
        created.append(id)
        lastEntry[article] = id
        if workerRunning { schedule(.wake(generation: generation), after: 0) }
    }

    private func interfere() {
        let known = server.articles.keys.sorted()
        guard let article = known.randomElement(using: &random) else { return }
        edits += 1
        let content = Double.random(in: 0..<1, using: &random) < 0.25 ? nil : ArticlePayload(title: article, body: "remote-\(edits)")
        server.interfere(article, content: content)
        count("remote change")
    }

    /// "Keep mine": the conflicted entry and the pending ones after it (whose content the local
    /// version holds) give way to one entry against the server's version.
    private func resolve(_ article: String) {
        guard let conflicted = entries.values.filter({ $0.articleID == article && $0.state == .conflicted })
            .min(by: { $0.sequence < $1.sequence }), let current = conflicts[article] else { return }
        count("resolved")
        entries[conflicted.id] = nil
        for entry in entries.values where entry.articleID == article && entry.sequence > conflicted.sequence {
            guard entry.state == .pending else {
                violate("entry \(entry.id) after conflicted \(conflicted.id) was \(entry.state)")
                continue
            }
            entries[entry.id] = nil
            superseded.insert(entry.id)
        }
        let serverLive = current.flatMap { $0.deleted ? nil : $0.revision }
        bases[article] = serverLive
        let change: OutboxChange
        switch (local[article] ?? nil, serverLive) {
        case let (content?, _): change = .put(content)
        case (nil, _?): change = .delete
        case (nil, nil): return
        }
        nextSequence += 1
        let id = "op-\(nextSequence)"
        entries[id] = OutboxEntry(id: id, articleID: article, sequence: nextSequence, change: change,
                                  precondition: serverLive.map { .revision($0) } ?? .absent)
        created.append(id)
        lastEntry[article] = id
        if workerRunning { schedule(.wake(generation: generation), after: 0) }
    }

    // MARK: Checks

    private func check() {
        for entry in entries.values where !entry.state.isFinal || entry.state == .conflicted {
            violate("entry \(entry.id) ended \(entry.state)")
        }
        for id in created {
            var survivor = id
            while let next = absorbedInto[survivor] { survivor = next }
            if finals[survivor] == nil && !superseded.contains(survivor) {
                violate("operation \(id) was lost (it ended in \(survivor), which never finished)")
            }
        }
        for (key, times) in server.applications where times > 1 { violate("key \(key) applied \(times) times") }
        for (body, times) in server.bodies where times > 1 { violate("edit \(body) applied \(times) times") }
        for (id, state) in finals {
            guard case let .acknowledged(revision) = state, let request = firstRequests[id] else { continue }
            switch server.lookup(id) {
            case let .completed(.applied(version, _)) where version.revision == revision:
                break
            case let other:
                violate("entry \(id) acknowledged at \(revision.map(String.init) ?? "nil") but the server says \(other) for \(request)")
            }
        }
        for key in server.applications.keys {
            guard case .acknowledged? = finals[key] else {
                violate("the server applied \(key) but the client holds it as \(finals[key].map { "\($0)" } ?? "open")")
                continue
            }
        }
        for (article, content) in local {
            var last = lastEntry[article]
            while let next = last.flatMap({ absorbedInto[$0] }) { last = next }
            if let last, case .terminalFailure? = finals[last] { continue }
            // Another device wrote after this library's last write: pulling brings that here.
            guard server.lastWriters[article] != nil else {
                count("remote change after the last push")
                continue
            }
            let onServer = server.articles[article]?.content
            if onServer != content {
                violate("article \(article) is \(content?.body ?? "deleted") here and \(onServer?.body ?? "deleted") on the server")
            }
        }
    }

    private func violate(_ message: String) {
        violations.append("seed \(options.seed) at \(String(format: "%.3f", now)) s: \(message)")
    }

    private func count(_ name: String) { counts[name, default: 0] += 1 }

    private func answerName(_ answer: WriteAnswer) -> String {
        switch answer {
        case let .applied(_, replayed): return replayed ? "answer: replayed" : "answer: applied"
        case .conflict: return "answer: conflict"
        case let .retry(advice): return "answer: retry \(advice.status)"
        case let .rejected(rejection): return "answer: rejected \(rejection.status ?? 0)"
        case .accountRejected: return "answer: account rejected"
        }
    }

    private func lookupName(_ lookup: WriteLookup) -> String {
        switch lookup {
        case .completed: return "completed"
        case .running: return "running"
        case .neverApplied: return "never applied"
        case .retry: return "retry"
        case .rejected: return "rejected"
        case .accountRejected: return "account rejected"
        }
    }

    private func schedule(_ event: Event, after delay: TimeInterval) {
        queue.push(event, at: now + delay)
    }

    /// Events by time, in insertion order for equal times.
    private struct EventQueue {
        private var heap: [(time: TimeInterval, order: Int, event: Event)] = []
        private var order = 0

        mutating func push(_ event: Event, at time: TimeInterval) {
            order += 1
            heap.append((time, order, event))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.before(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> (TimeInterval, Event)? {
            guard !heap.isEmpty else { return nil }
            heap.swapAt(0, heap.count - 1)
            let top = heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, Self.before(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, Self.before(heap[right], heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
            return (top.time, top.event)
        }

        private static func before(_ a: (time: TimeInterval, order: Int, event: Event), _ b: (time: TimeInterval, order: Int, event: Event)) -> Bool {
            a.time != b.time ? a.time < b.time : a.order < b.order
        }
    }
}
