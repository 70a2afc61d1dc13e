import CSQLite
import Foundation
import ObjectGraph
import Platform

/// `quire-bench objectgraph`: ObjectGraph against the same work written directly on the SQLite C
/// API (prepared statements, one transaction, the same pragmas and indexes), on temporary files.
///
/// Figures against `raw_sqlite`, with issue 20's targets: `insert_save` (≤ 1.5×),
/// `fetch_materialized` (≤ 1.3×; both sides keep what they fetched), `fetch_keyset_50` (≤ 1.5×),
/// `update_save_10k` (setting 10,000 titles and saving, ≤ 1.5×), `batch_insert` (≤ 1.1×).
/// `fetch_faults` is against `fetch_materialized`; `merge_batch_update_10k` and
/// `history_fetch_10k` have no baseline.
enum ObjectGraphSuite: BenchmarkSuite {
    static let name = "objectgraph"
    static let summary = "ObjectGraph insert, fetch, faulting, keyset paging, update, batch insert, merges and history against raw SQLite"
    static let defaultRows = 100_000

    /// How many keyset fetches one repetition times, since one takes well under a millisecond.
    static let keysetFetchesPerRepetition = 200
    static let updatedObjects = 10_000
    /// Transactions `history_fetch_10k` fetches.
    static let historyTransactions = 10_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let rows = BenchmarkRows(count: options.rows)
        let repetitions = options.repetitions
        let directory = options.workDirectory
        var results: [BenchmarkResult] = []

        // Insert all rows through one context save; each repetition starts from an empty store.
        // The two sides alternate, so that both meet the disk in the same state: each pays for
        // writing back what the one before it wrote (measured one block after the other, the
        // ratio moved between 1.09 and 1.69 from run to run). The context of a repetition, with
        // its 100,000 objects, is released in the next set-up, so that tearing it down is not timed.
        var storeNumber = 0
        func freshStoreURL(_ prefix: String) -> URL {
            storeNumber += 1
            return directory.appendingPathComponent("\(prefix)-\(storeNumber).sqlite")
        }
        let kept = Retainer()
        var rawURL = freshStoreURL("raw")
        var graphURL = freshStoreURL("graph")
        let (rawInsert, graphInsert) = try await measureAlternating(
            repetitions: repetitions,
            setUpFirst: { () -> RawStore in
                kept.releaseAll()
                rawURL = freshStoreURL("raw")
                return try RawStore(url: rawURL)
            },
            first: { store in try store.insert(rows) },
            setUpSecond: { () -> ManagedObjectContext in
                kept.releaseAll()
                graphURL = freshStoreURL("graph")
                let context = try PersistentContainer(schema: BenchArticle.schema, store: .file(graphURL)).newBackgroundContext()
                kept.keep(context)
                return context
            },
            second: { context in try insertAndSave(rows, in: context) })
        kept.releaseAll()
        results.append(BenchmarkResult(
            name: "insert_save", unit: "ms", samples: graphInsert, baseline: "raw_sqlite", baselineSamples: rawInsert))

        let raw = try RawStore(url: rawURL)
        let container = try PersistentContainer(schema: BenchArticle.schema, store: .file(graphURL))

        // Fetch everything as faults in batches of 50, and read the first 50.
        let faultFetch = try measureMilliseconds(repetitions: repetitions, setUp: { () -> ManagedObjectContext in
            let context = container.newBackgroundContext()
            kept.keep(context)
            return context
        }) { context in
            try context.performAndWait {
                var request = FetchRequest<BenchArticle>()
                request.fetchBatchSize = 50
                let fetched = try context.fetch(request)
                var characters = 0
                for article in fetched.prefix(50) { characters += article.title.utf8.count }
                guard fetched.count == rows.count, characters > 0 else { throw BenchmarkFailure.wrongCount(fetched.count) }
            }
        }
        kept.releaseAll()

        // Fetch the 50 rows after the middle of the date order (ties broken by primary key, which
        // both sides assign in insertion order). The page's request is made once, as an app takes
        // every page from one request: ObjectGraph translates its SQL once and binds the cursor's
        // values on each fetch (as it would another cursor's), as the raw side prepares its
        // statement once and binds each page.
        let order = (0..<rows.count).sorted { (rows.dates[$0], $0) < (rows.dates[$1], $1) }
        let middle = order[rows.count / 2]
        let expectedPage = Swift.min(50, rows.count - rows.count / 2 - 1)
        let middleDate = rows.dates[middle]
        let middleKey = Int64(middle + 1)
        let cursorContext = container.newBackgroundContext()
        let pageRequest = try cursorContext.performAndWait {
            let request = FetchRequest<BenchArticle>(sortDescriptors: [.ascending(\.date)], fetchLimit: 50)
            let matches = try cursorContext.fetch(FetchRequest<BenchArticle>(predicate: \.id == rows.ids[middle]))
            guard let article = matches.first else { throw BenchmarkFailure.wrongCount(0) }
            return request.after(try cursorContext.keysetCursor(for: article, in: request))
        }
        // Each page is timed alone, the two sides page by page in alternation, so that both
        // meet the machine in the same state (one block of raw pages and then one of the
        // framework's read between 1.33 and 1.50 from run to run), and which side goes first
        // changes from page to page. The framework uses one context, emptied (untimed) before each
        // fetch, so that every page is materialized anew as the raw side decodes it anew; making
        // a context is not part of a page's cost. (Not `measureAlternating`, which times each
        // side's whole turn: here a round is 200 pages, each timed inside the context's queue, so
        // that neither the emptying nor the hop onto the queue is timed.)
        let keysetContext = container.newBackgroundContext()
        var rawKeyset: [Double] = []
        var graphKeyset: [Double] = []
        for run in 0...repetitions {
            var rawElapsed = 0.0
            var graphElapsed = 0.0
            for page in 0..<keysetFetchesPerRepetition {
                func rawPage() throws {
                    var fetched: [RawStore.Row] = []
                    rawElapsed += try timeMilliseconds { fetched = try raw.page(after: middleDate.timeIntervalSince1970, key: middleKey, limit: 50) }
                    guard fetched.count == expectedPage else { throw BenchmarkFailure.wrongCount(fetched.count) }
                }
                func graphPage() throws {
                    try keysetContext.performAndWait {
                        keysetContext.reset()
                        var count = 0
                        graphElapsed += try timeMilliseconds { count = try keysetContext.fetch(pageRequest).count }
                        guard count == expectedPage else { throw BenchmarkFailure.wrongCount(count) }
                    }
                }
                if page % 2 == 0 {
                    try rawPage()
                    try graphPage()
                } else {
                    try graphPage()
                    try rawPage()
                }
            }
            // The first round warms both up.
            if run > 0 {
                rawKeyset.append(rawElapsed / Double(keysetFetchesPerRepetition))
                graphKeyset.append(graphElapsed / Double(keysetFetchesPerRepetition))
            }
        }
        results.append(BenchmarkResult(
            name: "fetch_keyset_50", unit: "ms", samples: graphKeyset, baseline: "raw_sqlite", baselineSamples: rawKeyset))

        // Update 10,000 objects and save, the two sides in alternation.
        let updated = Swift.min(updatedObjects, rows.count)
        var round = 0
        let (rawUpdate, graphUpdate) = try await measureAlternating(
            repetitions: repetitions,
            setUpFirst: { round += 1 },
            first: { _ in try raw.updateTitles(count: updated, round: round) },
            setUpSecond: { () -> (ManagedObjectContext, [BenchArticle]) in
                kept.releaseAll()
                round += 1
                let context = container.newBackgroundContext()
                let articles = try context.performAndWait {
                    Array(try context.fetch(FetchRequest<BenchArticle>(fetchLimit: updated)))
                }
                kept.keep(context)
                kept.keep(articles)
                return (context, articles)
            },
            second: { context, articles in
                try context.performAndWait {
                    for (index, article) in articles.enumerated() { article.title = "Updated \(round) \(index)" }
                    try context.save()
                }
            })
        kept.releaseAll()
        results.append(BenchmarkResult(
            name: "update_save_10k", unit: "ms", samples: graphUpdate, baseline: "raw_sqlite", baselineSamples: rawUpdate))

        // Insert all rows with one batch insert into an empty store; the request's dictionaries
        // are the input, made before the timing as the raw side's arrays are. The raw insert is
        // measured again, in alternation with the batch insert, so that both meet the disk in the
        // same state (each pays for writing back what the one before it wrote), and each store is
        // removed once measured.
        let batchRows: [[String: PrimitiveValue]] = (0..<rows.count).map { index in
            ["id": .uuid(rows.ids[index]), "title": .string(rows.titles[index]), "body": .string(rows.bodies[index]),
             "date": .date(rows.dates[index]), "isRead": .bool(rows.flags[index])]
        }
        var lastStore: URL?
        func replaceStore(_ prefix: String) -> URL {
            if let lastStore { removeStore(at: lastStore) }
            lastStore = freshStoreURL(prefix)
            return lastStore!
        }
        let (rawInsertAgain, batchInsert) = try await measureAlternating(
            repetitions: repetitions,
            setUpFirst: { () -> RawStore in
                kept.releaseAll()
                return try RawStore(url: replaceStore("raw"))
            },
            first: { store in try store.insert(rows) },
            setUpSecond: { () -> ManagedObjectContext in
                kept.releaseAll()
                let context = try PersistentContainer(schema: BenchArticle.schema, store: .file(replaceStore("batch"))).newBackgroundContext()
                kept.keep(context)
                return context
            },
            second: { context in
                let result = try context.performAndWait { try context.execute(BatchInsertRequest<BenchArticle>(objects: batchRows)) }
                guard result.count == rows.count else { throw BenchmarkFailure.wrongCount(result.count) }
            })
        kept.releaseAll()
        if let lastStore { removeStore(at: lastStore) }
        results.append(BenchmarkResult(
            name: "batch_insert", unit: "ms", samples: batchInsert, baseline: "raw_sqlite", baselineSamples: rawInsertAgain))

        results.append(BenchmarkResult(name: "merge_batch_update_10k", unit: "ms", value: try await mergeBatchUpdate(
            container: container, count: updated, repetitions: repetitions)))
        results.append(BenchmarkResult(name: "history_fetch_10k", unit: "ms", value: try historyFetch(
            url: freshStoreURL("history"), repetitions: repetitions)))

        // Last: `HeapPages` sets glibc's thresholds, and setting either turns glibc's dynamic mmap
        // threshold off for the rest of the process (a block freed from its own mapping no longer
        // raises the threshold to its size), so every figure measured after it would run on a
        // fixed threshold instead of the allocator as the app has it. The figures before changed
        // rows of the first stores, so this one reads stores of its own with the same rows, made
        // untimed. Its results keep their place in the report.
        let (rawFetch, graphFetch) = try await fetchMaterialized(
            rows, raw: RawStore(url: freshStoreURL("raw")), graphURL: freshStoreURL("graph"), repetitions: repetitions)
        results.insert(contentsOf: [
            BenchmarkResult(name: "fetch_materialized", unit: "ms", samples: graphFetch, baseline: "raw_sqlite", baselineSamples: rawFetch),
            BenchmarkResult(name: "fetch_faults", unit: "ms", value: faultFetch, baseline: "fetch_materialized", baselineValue: median(graphFetch)),
        ], at: 1)
        return results
    }

    /// Inserts every row as an object and saves the context: the `insert_save` figure's work.
    static func insertAndSave(_ rows: BenchmarkRows, in context: ManagedObjectContext) throws {
        try context.performAndWait {
            for index in 0..<rows.count {
                let article = BenchArticle(context: context)
                article.id = rows.ids[index]
                article.title = rows.titles[index]
                article.body = rows.bodies[index]
                article.date = rows.dates[index]
                article.isRead = rows.flags[index]
            }
            try context.save()
        }
    }

    /// The samples of `fetch_materialized` and of its raw baseline, in milliseconds, round by
    /// round, on two new stores filled with `rows` (untimed).
    static func fetchMaterialized(_ rows: BenchmarkRows, raw: RawStore, graphURL: URL, repetitions: Int) async throws -> (raw: [Double], graph: [Double]) {
        try raw.insert(rows)
        let container = try PersistentContainer(schema: BenchArticle.schema, store: .file(graphURL))
        try insertAndSave(rows, in: container.newBackgroundContext())
        let kept = Retainer()
        // Fetch everything, materialized, the two sides in alternation. What a repetition fetched
        // is released in the next set-up, untimed, so both sides fetch into memory the allocator
        // already holds (a side measured after the other would otherwise find the heap warm while
        // the first paid the kernel for fresh pages: that made raw SQLite look 2-4x slower). The
        // allocator keeps the pages freed meanwhile: otherwise how much of the heap it gave back
        // to the kernel depended on the shape of what the other side had just freed, and each
        // side paid for pages by the other's layout (perf, 20,000 rows: 4 of the raw side's 127
        // string-making samples were page faults in one build of ObjectGraph, 75 of 127 in the
        // next, with the raw code unchanged).
        let keepsPages = HeapPages.keptFreed()
        defer { keepsPages.restore() }
        let (rawFetch, graphFetch) = try await measureAlternating(
            repetitions: repetitions,
            setUpFirst: { kept.releaseAll() },
            first: { _ in
                let fetched = try raw.fetchAll()
                guard fetched.count == rows.count else { throw BenchmarkFailure.wrongCount(fetched.count) }
                kept.keep(fetched)
            },
            setUpSecond: { () -> ManagedObjectContext in
                kept.releaseAll()
                let context = container.newBackgroundContext()
                kept.keep(context)
                return context
            },
            second: { context in
                // The results are kept, as the raw side keeps its rows: releasing them (a release
                // per object) is not part of fetching.
                let fetched = try context.performAndWait {
                    let fetched = try context.fetch(FetchRequest<BenchArticle>())
                    guard fetched.count == rows.count, fetched.last?.body.isEmpty == false else {
                        throw BenchmarkFailure.wrongCount(fetched.count)
                    }
                    return fetched
                }
                kept.keep(fetched)
            })
        kept.releaseAll()
        return (rawFetch, graphFetch)
    }

    /// Merging a batch update of `count` objects into a view context that holds them loaded (and
    /// has an observer, as a fetched-results controller would be): the batch update runs
    /// untimed before each repetition.
    @MainActor
    static func mergeBatchUpdate(container: PersistentContainer, count: Int, repetitions: Int) throws -> Double {
        let view = container.viewContext
        var refreshed = 0
        let observation = view.addObserver { notification in
            if case .objectsDidChange(let change) = notification { refreshed += change.refreshed.count }
        }
        defer { observation.cancel() }
        let held = Array(try view.fetch(FetchRequest<BenchArticle>(fetchLimit: count)))
        let predicate: FetchPredicate<BenchArticle> = .in(\.id, held.map(\.id))
        let background = container.newBackgroundContext()
        var round = 0
        let milliseconds = try measureMilliseconds(repetitions: repetitions, setUp: { () -> ChangeSet in
            round += 1
            // Load the objects again (the previous merge turned them into faults).
            guard try view.fetch(FetchRequest<BenchArticle>(fetchLimit: count)).count == count, !held[0].isFault else {
                throw BenchmarkFailure.wrongCount(0)
            }
            return try background.performAndWait {
                var update = BatchUpdateRequest<BenchArticle>(predicate: predicate)
                update.set(\.title, to: "Batch \(round)")
                update.resultType = .objectIDs
                return try background.execute(update).changes
            }
        }) { changes in
            refreshed = 0
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [view])
            guard refreshed == count else { throw BenchmarkFailure.wrongCount(refreshed) }
        }
        guard held[count - 1].title == "Batch \(round)" else { throw BenchmarkFailure.wrongCount(-1) }
        return milliseconds
    }

    /// Fetching `historyTransactions` transactions (one changed object each) after a token, from a
    /// store that recorded them with ordinary saves.
    static func historyFetch(url: URL, repetitions: Int) throws -> Double {
        var description = StoreDescription.file(url, recordsHistory: true)
        // Only the set-up's many small commits; fetching does not depend on it.
        description.synchronous = .normal
        let container = try PersistentContainer(schema: BenchArticle.schema, store: description)
        let context = container.newBackgroundContext()
        let start = try context.performAndWait {
            context.transactionAuthor = "bench"
            let article = BenchArticle(context: context)
            article.id = UUID()
            article.title = "history"
            article.body = ""
            article.date = Date(timeIntervalSince1970: 0)
            article.isRead = false
            let first = try context.save()
            for index in 0..<historyTransactions {
                article.title = "history \(index)"
                try context.save()
            }
            return first.historyToken
        }
        let history = container.persistentStore.history
        return try measureMilliseconds(repetitions: repetitions) {
            let transactions = try history.fetch(HistoryRequest(after: start))
            guard transactions.count == historyTransactions, transactions.allSatisfy({ $0.changes.count == 1 }) else {
                throw BenchmarkFailure.wrongCount(transactions.count)
            }
        }
    }
}

/// The allocator's handling of freed memory for one measurement: with `keptFreed()` freed pages
/// stay in the process (no trimming of the heap, no large block given its own mapping) until
/// `restore()` sets glibc's default thresholds again. Only their values: glibc's dynamic mmap
/// threshold, off once either is set, stays off for the rest of the process, so a suite measures
/// with `keptFreed()` last.
struct HeapPages {
    /// glibc's default trim and mmap thresholds (128 KiB).
    private static let defaultThreshold: Int32 = 128 * 1024
    /// `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` of `<malloc.h>`, which Swift's Glibc module
    /// does not import (nor `mallopt`, looked up by name).
    private static let trimThreshold: Int32 = -1
    private static let mmapThreshold: Int32 = -3
    private typealias Setter = @convention(c) (Int32, Int32) -> Int32
    private static let mallopt: Setter? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
        .map { unsafeBitCast($0, to: Setter.self) }

    static func keptFreed() -> HeapPages {
        _ = mallopt?(trimThreshold, Int32.max)
        // The largest threshold glibc takes (32 MiB on 64-bit).
        _ = mallopt?(mmapThreshold, 32 * 1024 * 1024)
        return HeapPages()
    }

    func restore() {
        _ = Self.mallopt?(Self.trimThreshold, Self.defaultThreshold)
        _ = Self.mallopt?(Self.mmapThreshold, Self.defaultThreshold)
    }
}

/// Deletes a store file with its WAL and shared-memory files.
func removeStore(at url: URL) {
    for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: url.path + suffix)
    }
}

/// Keeps what repetitions made alive until a set-up or the end of a measurement releases it, so
/// that releasing it is not timed.
final class Retainer {
    private var values: [Any] = []

    func keep(_ value: Any) { values.append(value) }
    func releaseAll() { values.removeAll() }
}

enum BenchmarkFailure: Error {
    case wrongCount(Int)
    /// An object picked from a controller's results was not among them.
    case notInResults(ManagedObjectID)
}

/// The benchmark's article-like entity.
final class BenchArticle: ManagedObject {
    @Attribute("id") var id: UUID
    @Attribute("title") var title: String
    @Attribute("body") var body: String
    @Attribute("date") var date: Date
    @Attribute("isRead") var isRead: Bool

    static let schema = Schema(version: 1, entities: [
        EntityDescription(
            "Article", class: BenchArticle.self,
            attributes: [
                AttributeDescription("id", .uuid, unique: true),
                AttributeDescription("title", .string),
                AttributeDescription("body", .string),
                AttributeDescription("date", .date, indexed: true),
                AttributeDescription("isRead", .boolean),
            ]),
    ])
}

/// The rows both sides insert, made before anything is timed.
struct BenchmarkRows: Sendable {
    let count: Int
    let ids: [UUID]
    let titles: [String]
    let bodies: [String]
    let dates: [Date]
    let flags: [Bool]

    init(count: Int) {
        self.count = count
        var generator = SeededGenerator(seed: 42)
        let words = ["draft", "sync", "offline", "revision", "cursor", "outbox", "conflict", "merge", "editor", "library"]
        ids = (0..<count).map { _ in generator.uuid() }
        titles = (0..<count).map { "Article \($0) about \(words[$0 % words.count])" }
        bodies = (0..<count).map { index in
            var body = "Body of article \(index). "
            while body.utf8.count < 500 { body += words[Int(generator.next() % UInt64(words.count))] + " " }
            return String(body.prefix(500))
        }
        // Dates repeat every 1,000 rows, so the keyset order needs its key tie-breaker.
        dates = (0..<count).map { Date(timeIntervalSince1970: 1_600_000_000 + Double(($0 * 7919) % Swift.max(1, count / 3))) }
        flags = (0..<count).map { $0 % 3 == 0 }
    }
}

/// The baseline: the same table, pragmas and indexes, used through the C API as the fastest
/// careful programmer would: a connection without SQLite's mutexes (as ObjectGraph opens its own),
/// each statement prepared once and reused, text bound and read with its byte count (no strlen, no
/// copy on bind), and results reserved to their size. What ObjectGraph's table has besides (a
/// `_version` column for optimistic locking, written as 1 on insert and checked and incremented on
/// update, and `_pk` values it reserves itself) is the framework's own work and stays out of the
/// baseline; both write as much to the log (61,711 and 61,723 KiB at 100,000 rows, counted with
/// strace).
final class RawStore {
    private var handle: OpaquePointer?
    private var insertStatement: OpaquePointer?
    private var countStatement: OpaquePointer?
    private var fetchStatement: OpaquePointer?
    private var pageStatement: OpaquePointer?
    private var updateStatement: OpaquePointer?

    struct Row {
        var key: Int64
        var id: UUID
        var title: String
        var body: String
        var date: Date
        var isRead: Bool
    }

    init(url: URL) throws {
        let isNew = !FileManager.default.fileExists(atPath: url.path)
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw RawStoreError(message: "cannot open \(url.path)")
        }
        // ObjectGraph's settings (`PersistentStore.configure`).
        try execute("""
            PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; \
            PRAGMA cache_spill = \(PersistentStore.spillThresholdPages)
            """)
        if isNew {
            try execute("""
                CREATE TABLE article (pk INTEGER PRIMARY KEY, id BLOB NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, \
                date REAL NOT NULL, isRead INTEGER NOT NULL);
                CREATE UNIQUE INDEX article_id ON article (id);
                CREATE INDEX article_date ON article (date);
                """)
        }
        insertStatement = try prepare("INSERT INTO article (id, title, body, date, isRead) VALUES (?, ?, ?, ?, ?)")
        countStatement = try prepare("SELECT count(*) FROM article")
        fetchStatement = try prepare("SELECT pk, id, title, body, date, isRead FROM article")
        pageStatement = try prepare(
            "SELECT pk, id, title, body, date, isRead FROM article WHERE (date, pk) > (?, ?) ORDER BY date, pk LIMIT ?")
        updateStatement = try prepare("UPDATE article SET title = ? WHERE pk = ?")
    }

    deinit {
        for statement in [insertStatement, countStatement, fetchStatement, pageStatement, updateStatement] {
            sqlite3_finalize(statement)
        }
        sqlite3_close_v2(handle)
    }

    func insert(_ rows: BenchmarkRows) throws {
        try execute("BEGIN IMMEDIATE")
        let statement = insertStatement
        for index in 0..<rows.count {
            sqlite3_bind_double(statement, 4, rows.dates[index].timeIntervalSince1970)
            sqlite3_bind_int64(statement, 5, rows.flags[index] ? 1 : 0)
            // Static binds: the ID and the text stay alive until the row is written.
            var id = rows.ids[index].uuid
            let code = withUnsafeBytes(of: &id) { idBytes in
                sqlite3_bind_blob(statement, 1, idBytes.baseAddress, 16, nil)
                return Self.withText(rows.titles[index], bound: statement, at: 2) {
                    Self.withText(rows.bodies[index], bound: statement, at: 3) { sqlite3_step(statement) }
                }
            }
            guard code == SQLITE_DONE else { throw RawStoreError(message: lastError) }
            sqlite3_reset(statement)
        }
        sqlite3_clear_bindings(statement)
        try execute("COMMIT")
    }

    func fetchAll() throws -> [Row] {
        sqlite3_step(countStatement)
        let count = Int(sqlite3_column_int64(countStatement, 0))
        sqlite3_reset(countStatement)
        defer { sqlite3_reset(fetchStatement) }
        return try readRows(fetchStatement, expecting: count)
    }

    func page(after date: Double, key: Int64, limit: Int) throws -> [Row] {
        let statement = pageStatement
        defer { sqlite3_reset(statement) }
        sqlite3_bind_double(statement, 1, date)
        sqlite3_bind_int64(statement, 2, key)
        sqlite3_bind_int64(statement, 3, Int64(limit))
        return try readRows(statement, expecting: limit)
    }

    func updateTitles(count: Int, round: Int) throws {
        try execute("BEGIN IMMEDIATE")
        let statement = updateStatement
        for index in 0..<count {
            sqlite3_bind_int64(statement, 2, Int64(index + 1))
            let code = Self.withText("Updated \(round) \(index)", bound: statement, at: 1) { sqlite3_step(statement) }
            guard code == SQLITE_DONE else { throw RawStoreError(message: lastError) }
            sqlite3_reset(statement)
        }
        sqlite3_clear_bindings(statement)
        try execute("COMMIT")
    }

    private func readRows(_ statement: OpaquePointer?, expecting count: Int) throws -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(count)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw RawStoreError(message: lastError) }
            let id = UUID(uuid: sqlite3_column_blob(statement, 1)!.loadUnaligned(as: uuid_t.self))
            rows.append(Row(
                key: sqlite3_column_int64(statement, 0), id: id,
                title: Self.text(statement, 2), body: Self.text(statement, 3),
                date: Date(timeIntervalSince1970: sqlite3_column_double(statement, 4)),
                isRead: sqlite3_column_int64(statement, 5) != 0))
        }
        return rows
    }

    /// A text column, decoded with its byte count.
    @inline(__always)
    private static func text(_ statement: OpaquePointer?, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    /// Runs `body` with `text` bound (without a copy) at `index`.
    @inline(__always)
    private static func withText<T>(_ text: String, bound statement: OpaquePointer?, at index: Int32, _ body: () -> T) -> T {
        var text = text
        return text.withUTF8 { bytes in
            // An empty buffer may have no address; a null pointer would bind NULL, not "".
            let start = bytes.baseAddress ?? ("" as StaticString).utf8Start
            sqlite3_bind_text(statement, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
            return body()
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw RawStoreError(message: lastError) }
        return statement
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw RawStoreError(message: lastError) }
    }

    private var lastError: String { String(cString: sqlite3_errmsg(handle)) }
}

struct RawStoreError: Error {
    let message: String
}
