import CSQLite
import Dispatch
import Synchronization

/// A whole fetch whose rows are read on another thread, so that the context's queue (the main
/// thread, for a list) stays free meanwhile: ``FetchedResultsController/performFetchInBackground(then:)``.
extension FetchedResultsController {
    /// Fetches every matching object as ``performFetch()`` does, but reads the rows on another
    /// thread: the context's queue only asks for the fetch and, when the rows are in, places the
    /// objects that changed meanwhile and replaces the results (a cost of the changes, not of the
    /// rows). Until then the results stay as they are and follow changes as usual; afterwards the
    /// delegate is told of a reload and `completion` is called, on the context's queue, with nil,
    /// or with the error that left the results as they were.
    ///
    /// A list uses it for a search's whole list after its first screen
    /// (``performFetch(firstRows:)``): a key typed while the rows are read is handled at once.
    ///
    /// The rows are read on a read-only connection of their own, as the store is when the read
    /// begins (an in-memory store, which no other connection sees, under the store's lock). Every
    /// object a change of the context names while they are read, and every object with unsaved
    /// changes, is placed again from what the context and the store say when the rows arrive, so
    /// the results are exactly those of a fetch at that moment.
    ///
    /// Any later fetch (``performFetch()``, ``performFetch(firstRows:)``, another call of this
    /// one, the refetch after the context's `reset()`) gives the fetch up: its read stops, its
    /// rows are dropped and `completion` is not called (after the refetch, it is called with nil:
    /// the results are whole). Releasing the controller gives it up too.
    ///
    /// Throws, before reading anything, when the fetch request does not fit the schema.
    public func performFetchInBackground(then completion: @escaping ((any Error)?) -> Void) throws {
        let fetch = try startBackgroundFetch(then: completion)
        let queue = context.queue
        BackgroundFetch.readers.async {
            let rows = fetch.readRows()
            queue.async { fetch.deliver?(rows.outcome) }
        }
    }

    /// Begins a fetch in the background and notes the context's changes from now on; its rows
    /// are then read by `readRows()`, on any thread, and handed to `deliver` on the context's
    /// queue.
    func startBackgroundFetch(then completion: @escaping ((any Error)?) -> Void) throws -> BackgroundFetch {
        context.checkAccess()
        cancelBackgroundFetch()
        let plan = try FetchedResultsPlan(fetchRequest, sectionNameKeyPath: sectionNameKeyPath, context: context)
        let fetch = BackgroundFetch(plan: plan, store: context.persistentStore, completion: completion)
        let pending = pendingKeys(of: plan)
        fetch.placeAgain(pending.excluded)
        fetch.placeAgain(pending.placed)
        backgroundFetch = fetch
        observe()
        fetch.deliver = { [weak self] rows in self?.finishBackgroundFetch(fetch, rows: rows) }
        return fetch
    }

    /// Whether a fetch started by ``performFetchInBackground(then:)`` is still reading its rows.
    public var isFetchingInBackground: Bool {
        context.checkAccess()
        return backgroundFetch != nil
    }

    /// Gives up the fetch in the background, if any: its read stops and its rows are dropped.
    func cancelBackgroundFetch() {
        guard let fetch = backgroundFetch else { return }
        backgroundFetch = nil
        fetch.cancellation.cancel()
        fetch.deliver = nil
    }

    /// Puts the rows of `fetch` in place of the results, with the objects that changed while they
    /// were read (and those with unsaved changes) placed as a fetch now would.
    func finishBackgroundFetch(_ fetch: BackgroundFetch, rows: Swift.Result<FetchedRows, any Error>) {
        guard backgroundFetch === fetch else { return }
        backgroundFetch = nil
        fetch.deliver = nil
        if fetch.isOutdated {
            // The context let go of every object while the rows were read: read them again.
            do {
                try performFetchInBackground(then: fetch.completion)
            } catch {
                fetch.completion(error)
            }
            return
        }
        do {
            let fetched = try rows.get()
            let pending = pendingKeys(of: fetched.plan)
            fetch.placeAgain(pending.excluded)
            fetch.placeAgain(pending.placed)
            try place(fetch.keysToPlace, in: fetched)
            replaceResults(with: fetched, hasMoreRows: false)
        } catch {
            fetch.completion(error)
            return
        }
        observeAndReportReload()
        fetch.completion(nil)
    }
}

/// The state of one ``FetchedResultsController/performFetchInBackground(then:)``.
///
/// Sendable by construction, not by checking: the reader thread uses only ``plan``, ``store`` and
/// ``cancellation`` (which never change); everything else is used on the context's queue only.
final class BackgroundFetch: @unchecked Sendable {
    let plan: FetchedResultsPlan
    let store: PersistentStore
    let cancellation = ReadCancellation()
    let completion: ((any Error)?) -> Void
    /// Hands the rows to the controller, on the context's queue; nil once the fetch is given up.
    var deliver: ((Swift.Result<FetchedRows, any Error>) -> Void)?
    /// The objects to place again when the rows arrive: the read may predate their changes.
    private(set) var keysToPlace: [Int64] = []
    private var noted = Set<Int64>()
    /// Whether the context let go of every object (`reset()`, `refreshAllObjects()`) meanwhile.
    private(set) var isOutdated = false

    /// Reads one fetch at a time, for every controller: a newer fetch gives up the older one,
    /// whose read then stops.
    static let readers = DispatchQueue(label: "ObjectGraph.FetchedResultsController.background", qos: .userInitiated)

    init(plan: FetchedResultsPlan, store: PersistentStore, completion: @escaping ((any Error)?) -> Void) {
        self.plan = plan
        self.store = store
        self.completion = completion
    }

    func placeAgain<Keys: Sequence<Int64>>(_ keys: Keys) {
        for key in keys where noted.insert(key).inserted { keysToPlace.append(key) }
    }

    /// Notes the objects of the plan's entity that `notification` names.
    func note(_ notification: ContextNotification) {
        switch notification {
        case .objectsDidChange(let change):
            if change.invalidatedAll { isOutdated = true }
            note(change.inserted + change.deleted + (change.updated + change.refreshed).map(\.objectID))
            note(change.permanentIDs.flatMap { [$0.key, $0.value] })
        case .didSave(let changes):
            note(changes.permanentIDs.flatMap { [$0.key, $0.value] })
        case .willSave:
            break
        }
    }

    private func note(_ objectIDs: [ManagedObjectID]) {
        placeAgain(objectIDs.lazy.filter { self.plan.contains($0) }.map(\.key))
    }

    /// Reads the rows (on the reader thread): results in the plan's order, with no object of the
    /// context placed yet.
    func readRows() -> HandedRows {
        HandedRows(outcome: Swift.Result(catching: {
            guard !cancellation.isCancelled else { throw ReadCancellation.Cancelled() }
            let (table, count) = try store.readOnOwnConnection { connection in
                try cancellation.whileReading(on: connection) {
                    try FetchedRows.read(plan, limit: nil, excluding: [], on: connection)
                }
            }
            return FetchedRows(plan: plan, table: table, count: count)
        }))
    }
}

/// Rows read on the reader thread, handed to the context's queue once: nothing on the reader
/// thread refers to them afterwards.
struct HandedRows: @unchecked Sendable {
    let outcome: Swift.Result<FetchedRows, any Error>
}

/// Stops a read on another thread: SQLite asks it every thousand steps of its program
/// (`sqlite3_progress_handler`) and ends the statement with `SQLITE_INTERRUPT` once cancelled.
final class ReadCancellation: Sendable {
    struct Cancelled: Error {}

    private let cancelled = Atomic<Bool>(false)

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool {
        cancelled.load(ordering: .relaxed)
    }

    /// Runs `body` on `connection` with this cancellation stopping its statements.
    func whileReading<T>(on connection: SQLiteConnection, _ body: () throws -> T) throws -> T {
        try withExtendedLifetime(self) {
            sqlite3_progress_handler(connection.handle, 1000, { pointer in
                Unmanaged<ReadCancellation>.fromOpaque(pointer!).takeUnretainedValue().isCancelled ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
            defer { sqlite3_progress_handler(connection.handle, 0, nil, nil) }
            return try body()
        }
    }
}
