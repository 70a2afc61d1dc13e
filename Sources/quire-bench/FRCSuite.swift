import CSQLite
import Foundation
import ObjectGraph
import Platform

/// `quire-bench frc`: the fetched-results controller. `performFetch` against the raw C API reading
/// the same rows' keys and sort values in the same order into preallocated arrays (`raw_sqlite`),
/// newest first (the article list's order) and oldest first (`_ascending`); one change merged into
/// the view context against fetching again; and the peak memory of a process that fetches a
/// million rows into a controller.
enum FRCSuite: BenchmarkSuite {
    static let name = "frc"
    static let summary = "fetched-results controller: performFetch against raw SQLite, single changes against a refetch, peak memory at 1M rows"
    static let defaultRows = 100_000

    /// The article list's request: newest first.
    static let request = FetchRequest<BenchArticle>(sortDescriptors: [.descending(\.date)])
    /// The same, oldest first: SQLite reads the index the other way.
    static let ascendingRequest = FetchRequest<BenchArticle>(sortDescriptors: [.ascending(\.date)])
    /// Changes merged one after another per repetition (each is too quick to time alone).
    static let changesPerRepetition = 50
    /// Set in the process `rss_1m` starts: the store to fetch.
    static let rssStoreVariable = "QUIRE_BENCH_FRC_RSS_STORE"
    /// Set with it: the number of rows the child's controller must hold.
    static let rssRowsVariable = "QUIRE_BENCH_FRC_RSS_ROWS"

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let environment = ProcessInfo.processInfo.environment
        if let store = environment[rssStoreVariable], let rows = environment[rssRowsVariable].flatMap(Int.init) {
            // The process rss_1m measures: print the figure and stop (its own work folder, made
            // empty by main, goes with it).
            try? FileManager.default.removeItem(at: options.workDirectory)
            print(try await peakMegabytesOfFetch(store: URL(fileURLWithPath: store), rows: rows))
            exit(0)
        }
        let small = options.rows
        let large = options.rows * 10
        let smallStore = options.workDirectory.appendingPathComponent("frc-\(small).sqlite")
        let largeStore = options.workDirectory.appendingPathComponent("frc-\(large).sqlite")
        try makeStore(at: smallStore, rows: small)
        try makeStore(at: largeStore, rows: large)

        var results: [BenchmarkResult] = []
        for (rows, store, name) in [(small, smallStore, "perform_fetch_100k"), (large, largeStore, "perform_fetch_1m")] {
            for (fetchRequest, suffix) in [(request, ""), (ascendingRequest, "_ascending")] {
                let (raw, performFetch) = try await fetchTimes(of: fetchRequest, store: store, rows: rows, repetitions: options.repetitions)
                results.append(
                    BenchmarkResult(name: name + suffix, unit: "ms", samples: performFetch, baseline: "raw_sqlite", baselineSamples: raw))
            }
        }
        results += try await changeTimes(store: smallStore, rows: small, repetitions: options.repetitions)
        let peaks = try (0..<options.repetitions).map { _ in try peakMegabytesInChild(store: largeStore, rows: large) }
        results.append(BenchmarkResult(name: "rss_1m", unit: "MB", value: median(peaks)))
        return results
    }

    // MARK: Stores

    /// A store of `rows` articles with distinct dates in random order, written by batch inserts.
    static func makeStore(at url: URL, rows: Int) throws {
        var description = StoreDescription.file(url)
        description.synchronous = .normal
        let context = try PersistentContainer(schema: BenchArticle.schema, store: description).newBackgroundContext()
        var generator = SeededGenerator(seed: UInt64(rows))
        let chunk = 50_000
        try context.performAndWait {
            for start in stride(from: 0, to: rows, by: chunk) {
                let objects: [[String: PrimitiveValue]] = (start..<min(start + chunk, rows)).map { index in
                    ["id": .uuid(generator.uuid()), "title": .string("Article \(index)"), "body": .string(""),
                     "date": .date(date(generator.next())), "isRead": .bool(index % 3 == 0)]
                }
                _ = try context.execute(BatchInsertRequest<BenchArticle>(objects: objects))
            }
        }
    }

    /// A date within about ten years, from random bits.
    static func date(_ bits: UInt64) -> Date {
        Date(timeIntervalSince1970: 1_400_000_000 + Double(bits % 315_360_000_000) / 1000)
    }

    /// A view context on the store, as the app has.
    @MainActor
    static func viewContext(store: URL) throws -> (PersistentContainer, ManagedObjectContext) {
        var description = StoreDescription.file(store)
        description.synchronous = .normal
        let container = try PersistentContainer(schema: BenchArticle.schema, store: description)
        return (container, container.viewContext)
    }

    // MARK: Fetching

    /// The milliseconds of the raw baseline and of a new controller's `performFetch()` of
    /// `request`, measured in alternation, round by round. What a repetition fetched is released
    /// in the next set-up, untimed.
    @MainActor
    static func fetchTimes(
        of request: FetchRequest<BenchArticle>, store: URL, rows: Int, repetitions: Int
    ) async throws -> (raw: [Double], performFetch: [Double]) {
        let (container, view) = try viewContext(store: store)
        defer { _ = container }
        let ascending = request.sortDescriptors[0].ascending
        let raw = try RawSortKeyReader(store: store, ascending: ascending)
        let kept = Retainer()
        return try await measureAlternating(
            repetitions: repetitions,
            setUpFirst: { kept.releaseAll() },
            first: { _ in
                let read = try raw.read(rows: rows)
                guard read.keys.count == rows else { throw BenchmarkFailure.wrongCount(read.keys.count) }
                kept.keep(read)
            },
            setUpSecond: { () -> FetchedResultsController<BenchArticle> in
                kept.releaseAll()
                return try FetchedResultsController(fetchRequest: request, context: view)
            },
            second: { controller in
                try controller.performFetch()
                guard controller.count == rows else { throw BenchmarkFailure.wrongCount(controller.count) }
                kept.keep(controller)
            })
    }

    // MARK: Changes

    /// Counts what the controller reports.
    final class ChangeCounter: FetchedResultsControllerDelegate {
        var inserts = 0
        var deletes = 0
        var moves = 0
        var updates = 0
        var failure: (any Error)?

        func controller(_ controller: FetchedResultsController<BenchArticle>, didChange change: FetchedResultsChange) {
            switch change {
            case .insert: inserts += 1
            case .delete: deletes += 1
            case .move: moves += 1
            case .update: updates += 1
            }
        }

        func controller(_ controller: FetchedResultsController<BenchArticle>, didFailWith error: any Error) {
            failure = error
        }
    }

    enum ChangeKind: CaseIterable {
        case insert, update, move, delete

        var resultName: String {
            switch self {
            case .insert: "change_insert_100k"
            case .update: "change_update_100k"
            case .move: "change_move_100k"
            case .delete: "change_delete_100k"
            }
        }
    }

    /// Per change: merging one background save into the view context, which the controller
    /// observes, against the controller fetching again. Each save is merged right after it
    /// commits, as the app merges a writer's autosave; the saves are not timed. (Were a round's 50
    /// saves all made before its 50 merges, every save but the last would no longer be the store's
    /// latest commit when merged, and its row would be read, which a merge in the app rarely needs;
    /// see ObjectGraph's `SavedValues`.)
    @MainActor
    static func changeTimes(store: URL, rows: Int, repetitions: Int) throws -> [BenchmarkResult] {
        let (container, view) = try viewContext(store: store)
        let controller = try FetchedResultsController(fetchRequest: request, context: view)
        let counter = ChangeCounter()
        controller.delegate = counter
        try controller.performFetch()
        let refetch = try measureMilliseconds(repetitions: repetitions) {
            try controller.performFetch()
            guard controller.count == rows else { throw BenchmarkFailure.wrongCount(controller.count) }
        }

        let background = container.newBackgroundContext()
        var generator = SeededGenerator(seed: 7)
        var results: [BenchmarkResult] = []
        for kind in ChangeKind.allCases {
            let milliseconds = try medianOfSelfTimed(repetitions: repetitions) { () -> Double in
                // Each save names one article, picked among those in the results.
                var positions = Set<Int>()
                while positions.count < changesPerRepetition { positions.insert(Int(generator.next() % UInt64(controller.count))) }
                let targets = positions.sorted().map(controller.objectID(at:))
                var elapsed = 0.0
                for index in 0..<changesPerRepetition {
                    // A move's article and its neighbours in the results, read before the save.
                    var neighbours: (newer: ManagedObjectID?, older: ManagedObjectID?) = (nil, nil)
                    if kind == .move {
                        guard let position = controller.index(of: targets[index]) else { throw BenchmarkFailure.notInResults(targets[index]) }
                        neighbours = (position > 0 ? controller.objectID(at: position - 1) : nil,
                                      position + 1 < controller.count ? controller.objectID(at: position + 1) : nil)
                    }
                    let changes = try background.performAndWait { () -> ChangeSet in
                        switch kind {
                        case .insert:
                            let article = BenchArticle(context: background)
                            article.id = generator.uuid()
                            article.title = "Inserted"
                            article.body = ""
                            article.date = date(generator.next())
                            article.isRead = false
                        case .update:
                            try background.existingObject(with: targets[index], as: BenchArticle.self).title = "Updated \(generator.next())"
                        case .move:
                            try background.existingObject(with: targets[index], as: BenchArticle.self).date = try dateMoving(
                                between: neighbours.newer, and: neighbours.older, in: background, &generator)
                        case .delete:
                            background.delete(try background.existingObject(with: targets[index]))
                        }
                        let changes = try background.save()
                        background.reset()
                        return changes
                    }
                    let before = (counter.inserts, counter.deletes, counter.moves, counter.updates)
                    elapsed += timeMilliseconds { view.mergeChanges(fromContextDidSave: changes) }
                    let reported: Int
                    switch kind {
                    case .insert: reported = counter.inserts - before.0
                    case .delete: reported = counter.deletes - before.1
                    case .move: reported = counter.moves - before.2
                    case .update: reported = counter.updates - before.3
                    }
                    if let failure = counter.failure { throw failure }
                    guard reported == 1 else { throw BenchmarkFailure.wrongCount(reported) }
                }
                return elapsed / Double(changesPerRepetition)
            }
            results.append(BenchmarkResult(
                name: kind.resultName, unit: "ms", value: milliseconds, baseline: "refetch_100k", baselineValue: refetch))
        }
        return results
    }

    /// A random date outside the span between an article's neighbours in the newest-first results
    /// (`newer` right before it, `older` right after it), drawn again while it falls inside: there
    /// the article keeps its place, which the controller reports as an update, not a move, and with
    /// a few hundred rows a random date often does. Only the two neighbours' rows are read (a count
    /// of the newer rows instead walked the date index, and the timed merge after it met cold
    /// caches: 0.009 ms a move against 0.0065).
    static func dateMoving(
        between newer: ManagedObjectID?, and older: ManagedObjectID?, in context: ManagedObjectContext, _ generator: inout SeededGenerator
    ) throws -> Date {
        let upper = try newer.map { try context.existingObject(with: $0, as: BenchArticle.self).date } ?? .distantFuture
        let lower = try older.map { try context.existingObject(with: $0, as: BenchArticle.self).date } ?? .distantPast
        while true {
            let candidate = date(generator.next())
            if candidate > upper || candidate < lower { return candidate }
        }
    }

    // MARK: Memory

    /// The process `rss_1m` runs did not print a figure.
    struct ChildProcessFailure: Error {
        let status: Int32
        let output: String
    }

    /// Runs this program again on the store with `rssStoreVariable` set, and returns the figure it
    /// prints.
    static func peakMegabytesInChild(store: URL, rows: Int) throws -> Double {
        var environment = ProcessInfo.processInfo.environment
        environment[rssStoreVariable] = store.path
        environment[rssRowsVariable] = String(rows)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = try ChildProcess(executable, arguments: [name], environment: environment, capturesOutput: true)
        let text = try child.readOutput(timeout: 300)
        let status = try child.waitForExit(timeout: 60)
        guard status == 0, let megabytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ChildProcessFailure(status: status, output: text)
        }
        return megabytes
    }

    /// In the child: the process's peak resident megabytes (VmHWM) once a controller's
    /// `performFetch()` of every row of the store is done, with the count checked.
    @MainActor
    static func peakMegabytesOfFetch(store: URL, rows: Int) throws -> Double {
        let (container, view) = try viewContext(store: store)
        let controller = try FetchedResultsController(fetchRequest: request, context: view)
        try controller.performFetch()
        guard controller.count == rows else { throw BenchmarkFailure.wrongCount(controller.count) }
        let peak = ProcessMemory.peakResidentMegabytes()
        withExtendedLifetime((container, controller)) {}
        return peak
    }
}

/// The `frc` baseline: the controller's query written on the C API (a connection without SQLite's
/// mutexes, the statement prepared once, the same pragmas), reading each row's primary key and sort
/// value into arrays reserved to the row count.
final class RawSortKeyReader {
    private var handle: OpaquePointer?
    private var statement: OpaquePointer?

    init(store: URL, ascending: Bool) throws {
        guard sqlite3_open_v2(store.path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw RawStoreError(message: "cannot open \(store.path)")
        }
        let direction = ascending ? "ASC" : "DESC"
        // The order the controller reads: the sort key, ties by primary key in the same direction.
        let sql = "SELECT _pk, \"date\" FROM \"Article\" ORDER BY \"date\" \(direction), _pk \(direction)"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RawStoreError(message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(handle)
    }

    /// Every row's key and date, in order.
    func read(rows: Int) throws -> (keys: [Int64], dates: [Double]) {
        defer { sqlite3_reset(statement) }
        var keys: [Int64] = []
        var dates: [Double] = []
        keys.reserveCapacity(rows)
        dates.reserveCapacity(rows)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw RawStoreError(message: String(cString: sqlite3_errmsg(handle))) }
            keys.append(sqlite3_column_int64(statement, 0))
            dates.append(sqlite3_column_double(statement, 1))
        }
        return (keys, dates)
    }
}
