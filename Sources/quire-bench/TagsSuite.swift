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
/// - `sidebar_counts_100k_ms`: every count of the sidebar (``LibraryCounts``), no baseline;
/// - `list_rows_bind_200`: the article list binding its first 200 rows with their tags
///   prefetched by batch, against the same rows reading each row's tags when bound;
/// - `save_5000_words` and `version_record_5000_words`: an edit of a 5,000-word article saved,
///   and ending its editing session (recording the version, thinning, checking the history's
///   size): the second is what recording a version adds to the first; and the same two as
///   processor time (`_cpu`), which a busy machine's wait for a core does not swell.
enum TagsSuite: BenchmarkSuite {
    static let name = "tags"
    static let summary = "tag and status filters against raw SQLite, sidebar counts, a version's cost on a 5,000-word save"
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
            let rawTime = try measureMilliseconds(repetitions: options.repetitions) {
                guard try raw.read().count == expected else { throw BenchmarkFailure.wrongCount(expected) }
            }
            let request = query.fetchRequest
            let fetchTime = try measureMilliseconds(repetitions: options.repetitions) {
                let context = library.container.newBackgroundContext()
                let count = try context.performAndWait { try context.fetchObjectIDs(request).count }
                guard count == expected else { throw BenchmarkFailure.wrongCount(count) }
            }
            results.append(BenchmarkResult(name: name, unit: "ms", value: fetchTime, baseline: "raw_sqlite", baselineValue: rawTime))
        }

        let counts = try medianOfSelfTimed(repetitions: options.repetitions) {
            let context = library.container.newBackgroundContext()
            return try timeMilliseconds { _ = try context.performAndWait { try LibraryCounts.read(in: context) } }
        }
        results.append(BenchmarkResult(name: "sidebar_counts_\(suffix)_ms", unit: "ms", value: counts))

        let (bound, unprefetched) = try rowBindingTimes(library: library, repetitions: options.repetitions)
        results.append(BenchmarkResult(
            name: "list_rows_bind_\(listedRows)", unit: "ms", value: bound, baseline: "rows_without_prefetch", baselineValue: unprefetched))

        // A 5,000-word article, edited and its session ended, again and again.
        let words = (0..<5_000).map { "word\($0 % 997)" }.joined(separator: " ")
        let article = try await library.createArticle(ArticleContent(title: "Long", body: words))
        var edits = 0
        let save = try await measureMilliseconds(repetitions: options.repetitions, setUp: { edits += 1 }) { _ in
            try await library.editArticle(article.id, body: words + " edit \(edits)")
        }
        let record = try await measureMilliseconds(repetitions: options.repetitions, setUp: {
            edits += 1
            try await library.editArticle(article.id, body: words + " edit \(edits)")
        }) { _ in
            guard try await library.endEditingSession(of: article.id) != nil else { throw BenchmarkFailure.wrongCount(0) }
        }
        results.append(BenchmarkResult(name: "save_5000_words", unit: "ms", value: save))
        results.append(BenchmarkResult(
            name: "version_record_5000_words", unit: "ms", value: record, baseline: "save_5000_words", baselineValue: save))
        // The same two as the processor time the process spent on them: on a machine whose cores
        // other work keeps busy, waiting for a core swells the wall-clock times above (a record
        // of 1.4 ms measured 8 ms at a load of 16 on two cores), the processor time much less.
        let cpuSave = try await medianProcessorMilliseconds(repetitions: options.repetitions, setUp: { edits += 1 }) {
            try await library.editArticle(article.id, body: words + " edit \(edits)")
        }
        let cpuRecord = try await medianProcessorMilliseconds(repetitions: options.repetitions, setUp: {
            edits += 1
            try await library.editArticle(article.id, body: words + " edit \(edits)")
        }) {
            guard try await library.endEditingSession(of: article.id) != nil else { throw BenchmarkFailure.wrongCount(0) }
        }
        results.append(BenchmarkResult(name: "save_5000_words_cpu", unit: "ms", value: cpuSave))
        results.append(BenchmarkResult(
            name: "version_record_5000_words_cpu", unit: "ms", value: cpuRecord, baseline: "save_5000_words_cpu",
            baselineValue: cpuSave))
        library.close()
        return results
    }
}

extension TagsSuite {
    /// The median processor time (every thread of the process: the library's work runs on its
    /// contexts' threads) of `body` over `repetitions` runs after a warm-up, in milliseconds.
    static func medianProcessorMilliseconds(
        repetitions: Int, setUp: () async throws -> Void, _ body: () async throws -> Void
    ) async throws -> Double {
        var samples: [Double] = []
        for run in 0...repetitions {
            try await setUp()
            let start = BenchmarkClock.processorNanoseconds()
            try await body()
            if run > 0 { samples.append(Double(BenchmarkClock.processorNanoseconds() - start) / 1_000_000) }
        }
        return median(samples)
    }

    /// The rows the article list binds as it opens (a window's worth and the rows past it).
    static let listedRows = 200

    /// The milliseconds of binding the list's first ``listedRows`` rows as the article list does
    /// (its fetched-results controller's request, a prefetched range, then each row's title,
    /// excerpt, date, status, tags and sync state read) with the rows' tags prefetched, and the
    /// same without, in alternation; each repetition in a fresh context, so every row is a fault.
    static func rowBindingTimes(library: Library, repetitions: Int) throws -> (prefetched: Double, unprefetched: Double) {
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
        let (prefetched, unprefetched) = try measureAlternating(
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
