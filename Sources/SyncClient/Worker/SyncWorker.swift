import Foundation
import Library
import ObjectGraph
import SyncProtocol

/// Keeps a library in sync with a Quire server, in the background: pushes the outbox, pulls the
/// change feed, merges or records conflicts, and says where it stands (``status``).
///
///     let worker = SyncWorker(library: library, account: account)
///     await worker.start()
///     Task { @MainActor in for await status in worker.status.updates() { show(status) } }
///     worker.syncNow()                  // Ctrl+R
///     await worker.stop()               // sign out: the library keeps everything
///
/// It wakes on a local save that added outbox operations (it watches the store's saves), on the
/// pull interval, when an operation's retry is due, on ``syncNow()``, and when the network comes
/// back: while the server cannot be reached it checks `GET /v1/health` with a growing delay (no
/// network daemon needed), and ``networkMayHaveChanged()`` lets the app check at once when the
/// system reports a change (GNetworkMonitor).
///
/// Only the holder of the library's sync lease pushes and pulls; a worker that finds the lease
/// held by another process waits for it, and one whose lease was taken over stops its session
/// without persisting anything more and waits again. All its writes run in background contexts;
/// the view context merges them.
public actor SyncWorker {
    /// Where the worker stands, for the app to show.
    public nonisolated let status: SyncStatusFeed

    let library: Library
    let cycle: SyncCycle
    private let configuration: SyncWorkerConfiguration
    private let wake = WakeSignal()
    private var loop: Task<Void, Never>?
    private var observer: StoreObserver?
    private var countsRefresh: Task<Void, Never>?

    /// A worker for `library` that talks to the server through `transport`; `configuration.feedName`
    /// names the server's cursor in the library.
    public init(library: Library, transport: any SyncTransport, configuration: SyncWorkerConfiguration, owner: LeaseOwner = .thisProcess()) {
        self.library = library
        self.configuration = configuration
        let store = SyncStore(library: library, lease: LeaseClaim(owner: owner, duration: configuration.leaseDuration))
        cycle = SyncCycle(store: store, transport: transport, configuration: configuration)
        status = SyncStatusFeed()
    }

    /// A worker for `library` and the account's server, over HTTP.
    public init(library: Library, account: SyncAccount, configuration: SyncWorkerConfiguration? = nil, requestTimeout: TimeInterval = 60) {
        let transport = URLSessionTransport(configuration: .init(
            server: account.server, token: account.token, requestTimeout: requestTimeout,
            certificateAuthority: account.certificateAuthority, allowsInsecureHTTP: account.allowsInsecureHTTP))
        self.init(library: library, transport: transport, configuration: configuration ?? SyncWorkerConfiguration(server: account.server))
    }

    // MARK: Control

    /// Starts syncing in the background (once; later calls do nothing while it runs).
    public func start() {
        guard loop == nil else { return }
        let wake = wake
        observer = StoreObserver(library: library) { [weak self] change in
            if change.outboxGrew { wake.signal(.localSave) }
            if change.countsChanged, let self { Task { await self.scheduleCountsRefresh() } }
        }
        loop = Task { await self.run() }
    }

    /// Stops syncing: requests on the wire are cancelled (their operations are looked up by the
    /// next worker), the lease is given up, and the library keeps everything. Returns when stopped.
    public func stop() async {
        observer?.cancel()
        observer = nil
        wake.signal(.stop)
        loop?.cancel()
        await loop?.value
        loop = nil
        countsRefresh?.cancel()
        try? await cycle.store.releaseLease()
        status.update { $0.activity = .stopped }
    }

    /// Pushes and pulls now; waiting operations are sent before their retry time.
    public nonisolated func syncNow() { wake.signal(.syncNow) }

    /// The system says the network changed: check the server now instead of at the next probe.
    public nonisolated func networkMayHaveChanged() { wake.signal(.networkChanged) }

    /// One push/pull cycle in the caller's task, for `quire sync` and tests: takes the lease
    /// (throws ``SyncStoreError/leaseHeldElsewhere(owner:until:)`` when another process holds
    /// it), resumes what a previous worker left on the wire, pushes (waiting up to `settling`
    /// seconds for retries that come due), pulls, pushes what the pull merged, and gives the lease
    /// up. A server that cannot be reached, asks to wait or refuses to sync is reported in the
    /// summary's ``SyncStatus/lastProblem``; a refused token throws
    /// ``AccountError/tokenRefused(detail:)``, a failing store its error.
    public func synchronize(settling: TimeInterval = 0) async throws -> SyncSummary {
        if case let .heldElsewhere(owner, until) = try await cycle.store.acquireLease() {
            throw SyncStoreError.leaseHeldElsewhere(owner: owner, until: until)
        }
        var summary = SyncSummary()
        do {
            try await cycle.resumeOpenOperations()
            summary = try await runCycle(expedite: true, pull: true, settling: settling).summary
            try await cycle.store.releaseLease()
        } catch SyncCycle.Stop.accountRejected(let detail) {
            try? await cycle.store.releaseLease()
            throw AccountError.tokenRefused(detail: detail)
        } catch {
            try? await cycle.store.releaseLease()
            throw error
        }
        summary.status = status.current
        try await refreshCounts()
        summary.status = status.current
        return summary
    }

    /// Deletes a refused change from the outbox once the writer has seen it.
    public static func dismissFailure(_ operationID: String, in library: Library) async throws {
        try await library.container.performBackgroundTask { context in
            let request = FetchRequest<SyncOperation>(
                predicate: \.operationID == operationID && \.state == SyncOperationState.terminalFailure, fetchLimit: 1)
            for row in try context.fetch(request) { context.delete(row) }
            if context.hasChanges { _ = try context.save() }
        }
    }

    // MARK: The loop

    private func run() async {
        try? await refreshCounts()
        while !Task.isCancelled {
            do {
                switch try await cycle.store.acquireLease() {
                case let .heldElsewhere(owner, until):
                    status.update { $0.activity = .waitingForLease(owner: owner, until: until) }
                    let reasons = await wake.wait(until: min(until, Date() + configuration.leaseDuration / 2))
                    if reasons.contains(.stop) { return }
                    continue
                case .held:
                    try await session()
                }
            } catch SyncStoreError.leaseHeldElsewhere {
                continue
            } catch SyncCycle.Stop.accountRejected(let detail) {
                status.update { $0.activity = .signInRequired(detail: detail) }
                return
            } catch is CancellationError {
                return
            } catch {
                report(error)
                let reasons = await wake.wait(until: Date() + configuration.probeDelay.upperBound)
                if reasons.contains(.stop) { return }
            }
        }
    }

    /// Syncs while this worker holds the lease.
    private func session() async throws {
        try await cycle.resumeOpenOperations()
        var expedite = true
        var pull = true
        var lastPull = Date.distantPast
        var offlineSince: Date?
        var probes = 0
        while true {
            try Task.checkCancellation()
            if offlineSince == nil {
                let outcome = try await runCycle(expedite: expedite, pull: pull, settling: nil)
                if pull { lastPull = Date() }
                offlineSince = outcome.unreachable ? Date() : nil
                probes = 0
            }
            let now = Date()
            var deadline = now + configuration.leaseDuration / 3
            if let offlineSince {
                status.update { $0.activity = .offline(since: offlineSince) }
                let delay = min(configuration.probeDelay.upperBound, configuration.probeDelay.lowerBound * pow(2, Double(min(probes, 30))))
                deadline = min(deadline, now + delay)
            } else {
                status.update { $0.activity = .idle }
                deadline = min(deadline, lastPull + configuration.pullInterval)
                if let due = try await cycle.nextWakeUp() { deadline = min(deadline, due) }
            }
            let reasons = await wake.wait(until: deadline)
            if reasons.contains(.stop) { throw CancellationError() }
            if offlineSince != nil {
                // Only the server's health decides that the network is back.
                guard reasons.contains(.timer) || reasons.contains(.networkChanged) || reasons.contains(.syncNow) else {
                    try await cycle.store.write("renew the sync lease") { _, _ in }
                    continue
                }
                probes += 1
                if await serverAnswers() {
                    offlineSince = nil
                    expedite = true
                    pull = true
                } else {
                    try await cycle.store.write("renew the sync lease") { _, _ in }
                }
                continue
            }
            expedite = reasons.contains(.syncNow) || reasons.contains(.networkChanged)
            pull = expedite || Date() >= lastPull + configuration.pullInterval
        }
    }

    /// Whether `GET /v1/health` answers that the server is up.
    private func serverAnswers() async -> Bool {
        guard case let .success(health)? = try? await cycle.transport.health() else { return false }
        cycle.serverProtocol.record(health)
        return health.status == "ok"
    }

    /// What a cycle did, and whether the server could not be reached.
    private struct CycleOutcome {
        var summary = SyncSummary()
        var unreachable = false
    }

    /// Push, pull (when asked), and push again while the pull merged edits or waited for a push.
    private func runCycle(expedite: Bool, pull: Bool, settling: TimeInterval?) async throws -> CycleOutcome {
        status.update { $0.activity = .syncing }
        var outcome = CycleOutcome()
        var problem: SyncProblem?
        defer {
            status.update { $0.lastProblem = problem }
        }
        // A server found older than this build may have been upgraded since: its pull asks again.
        if pull { cycle.serverProtocol.forgetOlderVersion() }
        do {
            var report = try await cycle.push(expedite: expedite, settling: settling)
            outcome.summary.absorb(report)
            if report.answered == 0, report.unanswered > 0 {
                outcome.unreachable = true
                problem = Self.problem(report.lastFailure)
            }
            if pull && !outcome.unreachable {
                for _ in 0..<4 {
                    let pulled = try await cycle.pull()
                    outcome.summary.pulled = outcome.summary.pulled + pulled.tally
                    outcome.summary.attachmentsDownloaded += try await cycle.downloadAttachments(in: Array(pulled.referringToBlobs))
                    outcome.summary.resynced = outcome.summary.resynced || pulled.resynced
                    var again = pulled.tally.merged > 0
                    switch pulled.end {
                    case .caughtUp:
                        outcome.summary.pullIncomplete = false
                    case .waitingForPush:
                        outcome.summary.pullIncomplete = true
                        again = true
                    case let .retryLater(advice):
                        outcome.summary.pullIncomplete = true
                        problem = SyncProblem(kind: .server, summary: "The server asked to wait",
                                              detail: "GET \(SyncPath.changes) answered \(advice.status)")
                        again = false
                    }
                    guard again else { break }
                    report = try await cycle.push(expedite: true, settling: settling)
                    outcome.summary.absorb(report)
                    if report.answered == 0, report.unanswered > 0 { break }
                }
            }
        } catch let error as TransportError {
            outcome.unreachable = true
            problem = Self.problem(error)
        } catch SyncCycle.Stop.rejected(let rejection) {
            problem = SyncProblem(kind: .refused, summary: "The server refused to sync", detail: rejection.description)
        }
        if let version = cycle.serverProtocol.knownVersion {
            status.update { $0.serverKeepsNoAttachments = version < ProtocolVersion.blobs }
        }
        try await refreshCounts()
        return outcome
    }

    private static func problem(_ error: TransportError?) -> SyncProblem {
        SyncProblem(kind: .network, summary: "The server cannot be reached", detail: error?.description ?? "no request got an answer")
    }

    /// Shows a failure the loop cannot handle by itself (a store that fails).
    private func report(_ error: any Error) {
        let problem = SyncProblem(kind: .store, summary: "Sync stopped on an error", detail: String(describing: error))
        status.update { $0.lastProblem = problem }
    }

    // MARK: Counts

    private func scheduleCountsRefresh() {
        guard countsRefresh == nil else { return }
        countsRefresh = Task {
            // Several saves in a burst (autosave while typing) make one read.
            try? await Task.sleep(for: .milliseconds(100))
            self.countsRefresh = nil
            try? await self.refreshCounts()
        }
    }

    private func refreshCounts() async throws {
        let feed = configuration.feedName
        let counts = try await cycle.store.read { context in try StoreCounts.read(feed: feed, in: context) }
        status.update { counts.apply(to: &$0) }
    }
}

extension SyncSummary {
    mutating func absorb(_ report: SyncCycle.PushReport) {
        pushed += report.acknowledged
        refused += report.failed
        pushConflicts = pushConflicts + report.reconciled
    }
}
