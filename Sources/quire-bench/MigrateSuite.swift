import CSQLite
import Foundation
import Library
import ObjectGraph

/// `quire-bench migrate`: the upgrade of a V1 library of N articles (100,000 by default) to the
/// current schema, as the app runs it (working copy, stages in batches of 1,000, validation, swap,
/// backup kept).
///
/// - `migrate_v1_v2_100k` (s): the whole upgrade; baseline: copying the same file with the SQLite
///   backup API, the least any upgrade that keeps the original must do. Target: at most 4×. The
///   validation runs `quick_check`, not `integrity_check`, which alone took 2.1 s of processor
///   time at 100,000 articles (quick_check 0.3 s) to match index entries with rows, a check that
///   guards no text (ObjectGraph's README, "Migrating a store"). Since V6 the upgrade from V1
///   also fills the articles' full-text index anew (`prefix='1'`) and validation checks it
///   against the rows; in raw SQLite at 20,000 articles the fill alone takes 0.28–0.46 s of user
///   time and FTS5's check 0.24 s, against about 0.06–0.1 s for the copy, so 4× cannot be met
///   while the upgrade does both (processor clock, 2026-12-02, load 10–15: 18.4–20.0× at
///   20,000 before transforms were carried into one pass and the fill got a larger buffer,
///   14.7–16.5× after; 16.9× at 100,000).
/// - `migrate_peak_disk` (MB): the most extra disk the upgrade held at once (working copy, its
///   journal, the backup: allocated blocks of every file beside the library, each inode once),
///   sampled every two milliseconds and at every progress report; baseline: the library's size.
///
/// The V1 library is written once through ObjectGraph with ``LibrarySchema/v1`` (demo articles
/// with the derived fields V1 keeps: sort title, excerpt, word count; the full-text index through
/// the store's triggers), then copied, untimed, before each repetition.
enum MigrateSuite: BenchmarkSuite {
    static let name = "migrate"
    static let summary = "Upgrade of a V1 library to the current schema: time and peak extra disk"
    static let defaultRows = 100_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let template = options.workDirectory.appendingPathComponent("template-v1.quire")
        try writeV1Library(at: template, articles: options.rows)
        let librarySize = Double(try allocatedBytes(in: options.workDirectory)) / 1_048_576

        var run = 0
        func freshCopy() throws -> URL {
            // The previous repetition's folder goes first, so that the disk never holds more than one.
            let previous = options.workDirectory.appendingPathComponent("run-\(run)")
            if FileManager.default.fileExists(atPath: previous.path) { try FileManager.default.removeItem(at: previous) }
            run += 1
            let folder = options.workDirectory.appendingPathComponent("run-\(run)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("library.quire")
            try FileManager.default.copyItem(at: template, to: url)
            return url
        }

        let rawCopy = try measureMilliseconds(repetitions: options.repetitions, setUp: freshCopy) { url in
            try backupCopy(of: url, to: url.deletingLastPathComponent().appendingPathComponent("copy.quire"))
        }

        let plan = LibrarySchema.migrationPlan(batchSize: 1000)
        var peakExtra = 0.0
        let migration = try measureMilliseconds(repetitions: options.repetitions, setUp: freshCopy) { url in
            let folder = url.deletingLastPathComponent()
            let usage = DiskUsagePeak(folder: folder, base: try allocatedBytes(in: folder))
            let migrator = StoreMigrator(
                plan: plan, store: url, options: MigrationOptions(backupFolder: Library.backupFolder(for: url)))
            let outcome = try usage.sampling {
                try migrator.runNow { _ in usage.sample() }
            }
            guard outcome.stagesRun == plan.schemas.count - 1 else { throw MigrateBenchmarkError.notUpgraded(stagesRun: outcome.stagesRun) }
            peakExtra = max(peakExtra, Double(usage.peakExtraBytes) / 1_048_576)
        }
        let suffix = options.rows == 100_000 ? "100k" : "\(options.rows)"
        return [
            BenchmarkResult(
                name: "migrate_v1_v2_\(suffix)", unit: "s", value: migration / 1000,
                baseline: "raw_sqlite_copy", baselineValue: rawCopy / 1000),
            BenchmarkResult(
                name: "migrate_peak_disk", unit: "MB", value: peakExtra, baseline: "library_size", baselineValue: librarySize),
        ]
    }

    /// A V1 library of `articles` demo articles, written with the V1 schema and closed cleanly.
    private static func writeV1Library(at url: URL, articles: Int) throws {
        let container = try PersistentContainer(schema: LibrarySchema.v1, store: .file(url))
        let context = container.newBackgroundContext()
        let now = Date()
        for start in stride(from: 0, to: articles, by: 5000) {
            let rows: [[String: PrimitiveValue]] = (start..<min(articles, start + 5000)).map { index in
                let article = DemoLibrary.article(index, now: now)
                let summary = ArticleText.summary(of: article.body)
                return [
                    "id": .uuid(article.id), "title": .string(article.title), "sortTitle": .string(ArticleText.sortKey(article.title)),
                    "body": .string(article.body), "excerpt": .string(summary.excerpt), "wordCount": .integer(Int64(summary.wordCount)),
                    "favorite": .bool(article.isFavorite), "created": .date(article.created), "updated": .date(article.updated),
                    "status": .string(article.status.rawValue), "trashed": article.trashed.map(PrimitiveValue.date) ?? .null,
                    "localRevision": .integer(1), "syncState": .string("localOnly"),
                ]
            }
            _ = try context.performAndWait { try context.execute(BatchInsertRequest<ManagedObject>(entityName: "Article", objects: rows)) }
        }
        // Fold the write-ahead log into the file, as after Quire quits.
        try withConnection(url.path) { handle in try check(sqlite3_exec(handle, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil), handle) }
    }

    /// Copies a database with the SQLite backup API, the way the upgrade copies a library.
    private static func backupCopy(of source: URL, to destination: URL) throws {
        try withConnection(source.path) { from in
            try withConnection(destination.path) { to in
                guard let backup = sqlite3_backup_init(to, "main", from, "main") else {
                    throw MigrateBenchmarkError.sqlite(String(cString: sqlite3_errmsg(to)))
                }
                let stepped = sqlite3_backup_step(backup, -1)
                let finished = sqlite3_backup_finish(backup)
                guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
                    throw MigrateBenchmarkError.sqlite("backup: \(stepped), \(finished): \(String(cString: sqlite3_errmsg(to)))")
                }
            }
        }
    }

    private static func withConnection<T>(_ path: String, _ body: (OpaquePointer?) throws -> T) throws -> T {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close(handle) }
        try check(opened, handle)
        return try body(handle)
    }

    private static func check(_ code: Int32, _ handle: OpaquePointer?) throws {
        guard code == SQLITE_OK else { throw MigrateBenchmarkError.sqlite("\(code): \(String(cString: sqlite3_errmsg(handle)))") }
    }
}

/// The allocated bytes of every file under `folder`, each inode once (a backup linked to the
/// original takes no space of its own).
private func allocatedBytes(in folder: URL) throws -> Int64 {
    guard let entries = FileManager.default.enumerator(atPath: folder.path) else { return 0 }
    var seen = Set<UInt64>()
    var total: Int64 = 0
    for case let name as String in entries {
        var status = stat()
        // A file removed between listing and stat (a journal, a partial copy) takes no space.
        guard lstat(folder.appendingPathComponent(name).path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
        if seen.insert(UInt64(status.st_ino)).inserted { total += Int64(status.st_blocks) * 512 }
    }
    return total
}

/// The most disk a folder's files took above `base` while a piece of work ran.
private final class DiskUsagePeak: @unchecked Sendable {
    private let folder: URL
    private let base: Int64
    private let lock = NSLock()
    private var peak: Int64 = 0

    init(folder: URL, base: Int64) {
        self.folder = folder
        self.base = base
    }

    var peakExtraBytes: Int64 { lock.withLock { peak } }

    /// Measures the folder now.
    func sample() {
        guard let bytes = try? allocatedBytes(in: folder) else { return }
        lock.withLock { peak = max(peak, bytes - base) }
    }

    /// Runs `body` while another thread samples every two milliseconds.
    func sampling<T>(_ body: () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            while done.wait(timeout: .now() + .milliseconds(2)) == .timedOut { sample() }
            stopped.signal()
        }
        thread.start()
        defer {
            done.signal()
            stopped.wait()
            sample()
        }
        return try body()
    }
}

private enum MigrateBenchmarkError: Error, CustomStringConvertible {
    case sqlite(String)
    case notUpgraded(stagesRun: Int)

    var description: String {
        switch self {
        case .sqlite(let message): return "SQLite: \(message)"
        case .notUpgraded(let stagesRun): return "the upgrade ran \(stagesRun) stages, not every one"
        }
    }
}
