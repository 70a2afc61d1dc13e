import CSQLite
import Foundation
import Library
import ObjectGraph

/// `quire-bench tags`: tags, status and history over a library of `--rows` demo articles
/// (100,000 by default):
/// - `tag_filter_fetch_100k`: the article list's `tag:` filter, newest first, as object IDs
///   (what a fetched-results controller with batches reads first), against the raw C API reading
///   the same rows' keys with the fastest query found for them (the articles outside the trash by
///   date whose key is among the tag's join rows; a join from the tag's rows, sorted, was slower),
///   prepared once on a `NOMUTEX` connection;
/// - `status_filter_fetch_100k`: the same for `status:ready`;
/// - `sidebar_counts_100k_ms`: every count of the sidebar read in full (``LibraryCounts``), no
///   baseline;
/// - `sidebar_counts_first_read_100k_ms`: ``RunningCounts``' reading of every article's places
///   through the indexes (``RunningCounts/prepare()``, in the background after the window's first
///   full count), against the full count above;
/// - `sidebar_counts_update_100k_ms`: from a change's save (one article starred or not, its status
///   and one tag changed, with its outbox operation) to the updated counts, against the raw C API
///   reading what the update reads (the article's counted columns and tag rows, the folders and
///   tags); and `sidebar_counts_update_100k_vs_full`, the same against the full count;
/// - `list_rows_bind_200`: the article list binding its first 200 rows with their tags
///   prefetched by batch, against the same rows reading each row's tags when bound;
/// - `save_5000_words` and `version_record_5000_words`: an edit of a 5,000-word article saved, and
///   what ending its editing session in that save adds (the version recorded in the same
///   transaction, thinned, the history's size checked): the median difference of alternating
///   pairs (below zero when the version costs less than the pairs' noise); and the same two as processor time (`_cpu`), which a busy machine's wait for a core
///   does not swell.
enum TagsSuite: BenchmarkSuite {
    static let name = "tags"
    static let summary = "tag and status filters against raw SQLite, sidebar counts (full, first running reading, update after a save), a version's cost on a 5,000-word save"
    static let defaultRows = 100_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let url = options.workDirectory.appendingPathComponent("library.quire")
        let library = try Library(url: url)
        _ = try await library.addDemoArticles(count: options.rows, batchSize: 5000)
        try library.container.persistentStore.checkpoint()
        let tag = DemoLibrary.tags[0]
        let rows = options.rows
        let suffix = rows == 100_000 ? "100k" : "\(rows)"

        var results: [BenchmarkResult] = []
        let filters: [(String, ArticleQuery, String, [RawKeyReader.Binding])] = [
            ("tag_filter_fetch_\(suffix)", ArticleQuery(filter: .tag(tag)), """
                SELECT a._pk FROM "Article" a WHERE a."trashed" IS NULL AND a._pk IN (
                    SELECT j.source FROM "og_join_Article_tags" j JOIN "Tag" t ON t._pk = j.target WHERE t."name" = ?)
                ORDER BY a."updated" DESC, a._pk DESC
                """, [.text(tag)]),
            ("status_filter_fetch_\(suffix)", ArticleQuery(searchText: "status:ready"), """
                SELECT _pk FROM "Article" WHERE "status" = ? AND "trashed" IS NULL ORDER BY "updated" DESC, _pk DESC
                """, [.text("ready")]),
        ]
        for (name, query, sql, bindings) in filters {
            let raw = try RawKeyReader(store: url, sql: sql, bindings: bindings)
            let expected = try raw.read().count
            let request = query.fetchRequest
            let context = library.container.newBackgroundContext()
            // Alternating, many times: a filter fetch takes a few milliseconds, and measured in
            // two blocks one after the other the ratio moved with the machine's load (0.77–1.53).
            let (fetchTime, rawTime) = try await measureAlternating(
                repetitions: max(options.repetitions, filterRepetitions),
                setUpFirst: { context.performAndWait { context.reset() } },
                first: { _ in
                    let ids = try context.performAndWait { try context.fetchObjectIDs(request) }
                    guard ids.count == expected else { throw BenchmarkFailure.wrongCount(ids.count) }
                },
                setUpSecond: {},
                second: { _ in
                    guard try raw.read().count == expected else { throw BenchmarkFailure.wrongCount(expected) }
                })
            results.append(BenchmarkResult(name: name, unit: "ms", samples: fetchTime, baseline: "raw_sqlite", baselineSamples: rawTime))
        }

        let counts = try medianOfSelfTimed(repetitions: options.repetitions) {
            let context = library.container.newBackgroundContext()
            return try timeMilliseconds { _ = try context.performAndWait { try LibraryCounts.read(in: context) } }
        }
        results.append(BenchmarkResult(name: "sidebar_counts_\(suffix)_ms", unit: "ms", value: counts))
        results += try await runningCountTimes(library: library, store: url, suffix: suffix, fullRecount: counts, repetitions: options.repetitions)

        let (bound, unprefetched) = try await rowBindingTimes(library: library, repetitions: options.repetitions)
        results.append(BenchmarkResult(
            name: "list_rows_bind_\(listedRows)", unit: "ms", samples: bound, baseline: "rows_without_prefetch", baselineSamples: unprefetched))

        // A 5,000-word article, edited again and again: a plain save (an autosave) in alternation
        // with the save that ends an editing session (the text and its version in one
        // transaction); what the version adds is the median of the pairs' differences.
        let words = (0..<5_000).map { "word\($0 % 997)" }.joined(separator: " ")
        let article = try await library.createArticle(ArticleContent(title: "Long", body: words))
        var edits = 0
        func sessionTimes(_ clock: () -> Double) async throws -> (save: Double, added: Double) {
            var saves: [Double] = [], differences: [Double] = []
            for run in 0...options.repetitions {
                edits += 1
                var start = clock()
                try await library.editArticle(article.id, body: words + " edit \(edits)")
                let save = clock() - start
                edits += 1
                start = clock()
                try await library.editArticle(article.id, body: words + " edit \(edits)", endingSession: true)
                let ending = clock() - start
                if run > 0 {
                    saves.append(save)
                    differences.append(ending - save)
                }
            }
            guard try await library.history(of: article.id).count > options.repetitions else { throw BenchmarkFailure.wrongCount(0) }
            return (median(saves), median(differences))
        }
        let wall = try await sessionTimes { Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000 }
        results.append(BenchmarkResult(name: "save_5000_words", unit: "ms", value: wall.save))
        results.append(BenchmarkResult(
            name: "version_record_5000_words", unit: "ms", value: wall.added, baseline: "save_5000_words", baselineValue: wall.save))
        // The same two as the processor time the process spent on them: on a machine whose cores
        // other work keeps busy, waiting for a core swells the wall-clock times above (a record
        // of 1.4 ms measured 8 ms at a load of 16 on two cores), the processor time much less.
        let cpu = try await sessionTimes(processorMilliseconds)
        results.append(BenchmarkResult(name: "save_5000_words_cpu", unit: "ms", value: cpu.save))
        results.append(BenchmarkResult(
            name: "version_record_5000_words_cpu", unit: "ms", value: cpu.added, baseline: "save_5000_words_cpu",
            baselineValue: cpu.save))
        library.close()
        return results
    }
}

extension TagsSuite {
    /// The sidebar's counts kept up to date (``RunningCounts``): its first reading, and the update
    /// after a change's save, each checked against a full count.
    static func runningCountTimes(
        library: Library, store: URL, suffix: String, fullRecount: Double, repetitions: Int
    ) async throws -> [BenchmarkResult] {
        let firstRead = try await measureMilliseconds(repetitions: repetitions, setUp: { RunningCounts(library: library) }) { running in
            try await running.prepare()
        }
        let running = RunningCounts(library: library)
        try await running.prepare()
        let context = library.container.newBackgroundContext()
        let (article, tag) = try context.performAndWait {
            let article = try context.fetch(FetchRequest<StoredArticle>(predicate: .isNil(\.trashed), fetchLimit: 1))[0]
            let tag = try context.fetch(FetchRequest<Tag>(predicate: \.name == DemoLibrary.tags[1], fetchLimit: 1))[0]
            return (article.objectID, tag.objectID)
        }
        // A change of the writer's, saved as every library operation saves it.
        let change: @Sendable () throws -> CountChange = {
            try context.performAndWait {
                let stored = try context.existingObject(with: article, as: StoredArticle.self)
                let member = try context.existingObject(with: tag, as: Tag.self)
                stored.isFavorite.toggle()
                stored.status = stored.status == .ready ? .draft : .ready
                if stored.tags.contains(member) { stored.$tags.remove(member) } else { stored.$tags.insert(member) }
                try LocalChanges.record(in: context)
                return CountChange(try context.save())
            }
        }
        var last: RunningCounts.Reading?
        let update = try await measureMilliseconds(repetitions: repetitions, setUp: change) { change in
            last = try await running.counts(after: change)
        }
        let full = try context.performAndWait { try LibraryCounts.read(in: context) }
        guard last?.counts == full else { throw BenchmarkFailure.wrongCount(last?.counts.favorites ?? -1) }

        let key = Int64(article.uriRepresentation.lastPathComponent.dropFirst())!
        let raw = try [
            #"SELECT "trashed" IS NOT NULL, "favorite", "status", "folder" FROM "Article" WHERE _pk = \#(key)"#,
            #"SELECT target FROM "og_join_Article_tags" WHERE source = \#(key)"#,
            #"SELECT _pk, "name" FROM "Folder""#, #"SELECT _pk, "name" FROM "Tag""#,
        ].map { try RawKeyReader(store: store, sql: $0, bindings: []) }
        let rawRead = try measureMilliseconds(repetitions: repetitions) {
            guard try raw.reduce(0, { $0 + (try $1.read().count) }) > 2 else { throw BenchmarkFailure.wrongCount(0) }
        }
        return [
            BenchmarkResult(
                name: "sidebar_counts_first_read_\(suffix)_ms", unit: "ms", value: firstRead, baseline: "full_recount",
                baselineValue: fullRecount),
            BenchmarkResult(name: "sidebar_counts_update_\(suffix)_ms", unit: "ms", value: update, baseline: "raw_sqlite", baselineValue: rawRead),
            BenchmarkResult(
                name: "sidebar_counts_update_\(suffix)_vs_full", unit: "ms", value: update, baseline: "full_recount",
                baselineValue: fullRecount),
        ]
    }

    /// The processor time of the whole process so far (every thread: the library's work runs on
    /// its contexts' threads), in milliseconds.
    static func processorMilliseconds() -> Double {
        Double(BenchmarkClock.processorNanoseconds()) / 1_000_000
    }

    /// Alternating pairs the filter figures take at least (a fetch takes milliseconds: many are cheap).
    static let filterRepetitions = 25

    /// The rows the article list binds as it opens (a window's worth and the rows past it).
    static let listedRows = 200

    /// The milliseconds, round by round, of binding the list's first ``listedRows`` rows as the article list does
    /// (its fetched-results controller's request, a prefetched range, then each row's title,
    /// excerpt, date, status, tags and sync state read) with the rows' tags prefetched, and the
    /// same without, in alternation; each repetition in a fresh context, so every row is a fault.
    static func rowBindingTimes(library: Library, repetitions: Int) async throws -> (prefetched: [Double], unprefetched: [Double]) {
        func controller(prefetchingTags: Bool) throws -> (ManagedObjectContext, FetchedResultsController<StoredArticle>) {
            let context = library.container.newBackgroundContext()
            var request = ArticleQuery().fetchRequest
            request.fetchBatchSize = 100
            if prefetchingTags { request.prefetch(\.tags) }
            let controller = try context.performAndWait {
                let controller = try FetchedResultsController(fetchRequest: request, context: context)
                try controller.performFetch()
                return controller
            }
            return (context, controller)
        }
        func bind(_ fixture: (ManagedObjectContext, FetchedResultsController<StoredArticle>)) throws {
            let (context, controller) = fixture
            let shown = context.performAndWait {
                controller.prefetch(0..<listedRows)
                var shown = 0
                for index in 0..<min(listedRows, controller.count) {
                    let article = controller.object(at: index)
                    let text = article.title + article.excerpt + article.tagNames.joined(separator: ", ")
                    if !text.isEmpty, article.updated > .distantPast, article.status.rawValue != "", article.syncState != .conflicted {
                        shown += 1
                    }
                }
                return shown
            }
            guard shown > 0 else { throw BenchmarkFailure.wrongCount(shown) }
        }
        let (prefetched, unprefetched) = try await measureAlternating(
            repetitions: repetitions,
            setUpFirst: { try controller(prefetchingTags: true) }, first: bind,
            setUpSecond: { try controller(prefetchingTags: false) }, second: bind)
        return (prefetched, unprefetched)
    }
}

/// The raw C API reading the keys one query selects, prepared once.
final class RawKeyReader {
    enum Binding {
        case text(String)
    }

    private var handle: OpaquePointer?
    private var statement: OpaquePointer?
    private var keys: [Int64] = []

    init(store: URL, sql: String, bindings: [Binding]) throws {
        guard sqlite3_open_v2(store.path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw RawStoreError(message: "cannot open \(store.path)")
        }
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RawStoreError(message: String(cString: sqlite3_errmsg(handle)))
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, binding) in bindings.enumerated() {
            switch binding {
            case .text(let text): sqlite3_bind_text(statement, Int32(index + 1), text, -1, transient)
            }
        }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close_v2(handle)
    }

    /// The keys, in the query's order, into an array kept between runs.
    func read() throws -> [Int64] {
        defer { sqlite3_reset(statement) }
        keys.removeAll(keepingCapacity: true)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw RawStoreError(message: String(cString: sqlite3_errmsg(handle))) }
            keys.append(sqlite3_column_int64(statement, 0))
        }
        return keys
    }
}
