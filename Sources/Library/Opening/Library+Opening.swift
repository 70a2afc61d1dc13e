import Foundation
import ObjectGraph

/// Whether a library may be written.
public enum LibraryAccess: Sendable, Hashable {
    /// Reading and writing.
    case readWrite
    /// Reading and exporting only, for the reason given (``LibraryProblem/message`` of
    /// `LibraryProblem(.readOnly(reason), ...)` explains it to the writer).
    case readOnly(LibraryProblem.ReadOnlyReason)
}

/// How ``Library/open(at:options:progress:)`` may treat the library.
public struct LibraryOpenOptions: Sendable {
    /// Create an empty library when there is none.
    public var createIfMissing = false
    /// Upgrade a library an older Quire wrote (keeping the old one as a backup); otherwise such a
    /// library fails with ``LibraryProblem/Kind/upgradeRequired(from:to:)``.
    public var upgrades = true
    /// Open read-only a library that may not be written or that a newer Quire wrote; otherwise
    /// those fail with their problem.
    public var opensReadOnly = true
    /// The pauses between attempts while another program holds the library (after SQLite's own
    /// five-second wait for a lock, and for a migration another process runs).
    public var busyRetryDelays: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)]
    /// Articles per transaction when an upgrade transforms them.
    public var upgradeBatchSize = 1000
    /// The language an upgrade gives articles from before languages (the app's default language).
    public var defaultLanguage = ArticleLanguage.preferred
    /// The free bytes of the file system holding a path (`statvfs`; tests may say otherwise).
    public var availableSpace: @Sendable (String) throws -> Int64 = StoreFiles.availableSpace(at:)

    /// The defaults: no creation, upgrades and read-only fallback allowed.
    public init(createIfMissing: Bool = false) {
        self.createIfMissing = createIfMissing
    }
}

extension Library {
    /// Opens the library at `url` the way the app and every command-line verb do, so that each
    /// failure is classified and handled the same way everywhere:
    /// - a library an older Quire wrote is upgraded first (``LibrarySchema/migrationPlan(batchSize:)``,
    ///   with a backup; an interrupted upgrade resumes), reporting `progress`;
    /// - a library another program holds is tried again after each of ``LibraryOpenOptions/busyRetryDelays``;
    /// - a library that may not be written, or that a newer Quire wrote (when it can be read), is
    ///   opened read-only (``access`` says so);
    /// - anything else fails with a ``LibraryProblem`` whose message the app shows as it is.
    ///
    /// The work runs on a thread of its own, never on the caller's (an upgrade of a large library
    /// takes a while); `progress` is called on that thread:
    ///
    ///     do {
    ///         let library = try await Library.open(at: url) { progress in
    ///             Task { @MainActor in upgradeView.show(progress.phase.description, progress.fractionCompleted) }
    ///         }
    ///     } catch {
    ///         problemDialog.show(error.title, error.message, buttons: error.remedies)
    ///     }
    public static func open(
        at url: URL, options: LibraryOpenOptions = LibraryOpenOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) async throws(LibraryProblem) -> Library {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Library, LibraryProblem>, Never>) in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(LibraryProblem) -> Library in
                    try openNow(at: url, options: options, progress: progress)
                })
            }
            thread.name = "quire.library-open"
            thread.start()
        }
        return try result.get()
    }

    /// ``open(at:options:progress:)`` on the calling thread, which it blocks while it upgrades or
    /// waits for a busy library (the command line's verbs use it; never call it on the app's main thread).
    public static func openNow(
        at url: URL, options: LibraryOpenOptions = LibraryOpenOptions(),
        progress: @escaping @Sendable (MigrationProgress) -> Void = { _ in }
    ) throws(LibraryProblem) -> Library {
        let url = url.standardizedFileURL
        do {
            return try open(url, options: options, progress: progress)
        } catch {
            throw LibraryProblem.classify(error, path: url.path)
        }
    }

    /// Where the backups of a library's upgrades go: `backups/` beside it.
    public static func backupFolder(for url: URL) -> URL {
        url.standardizedFileURL.deletingLastPathComponent().appendingPathComponent("backups", isDirectory: true)
    }

    /// The backups of this library's upgrades, with what keeps them.
    public var backups: StoreBackups { StoreBackups(folder: Self.backupFolder(for: url)) }

    /// Counts today as a day this library was used, and removes the upgrade backups whose time has
    /// come (``StoreBackups/Retention/default``: 7 days of use, 14 days of age); returns the removed
    /// files. Call after opening for writing (the command line does on every verb). Writes nothing
    /// for a read-only library.
    @discardableResult
    public func recordUseForBackups(on date: Date = Date()) throws -> [URL] {
        guard access == .readWrite else { return [] }
        return try backups.recordUse(of: container.persistentStore.metadata, on: date)
    }

    private static func open(
        _ url: URL, options: LibraryOpenOptions, progress: @escaping @Sendable (MigrationProgress) -> Void
    ) throws -> Library {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            guard options.createIfMissing else { throw LibraryProblem(.missing, path: path) }
            return try retryingBusy(options) { try Library(url: url, createIfMissing: true, access: .readWrite, upgrade: nil) }
        }

        let plan = LibrarySchema.migrationPlan(batchSize: options.upgradeBatchSize, defaultLanguage: options.defaultLanguage)
        let migrator = StoreMigrator(
            plan: plan, store: url,
            options: MigrationOptions(backupFolder: backupFolder(for: url), availableSpace: options.availableSpace))
        var upgrade: MigrationOutcome?
        // Reading the schema version waits for another program too, like opening does.
        switch try retryingBusy(options, migrator.status) {
        case .needed(let from, _), .interrupted(let from, _):
            guard options.upgrades else {
                throw LibraryProblem(.upgradeRequired(from: from.version, to: plan.current.version), path: path)
            }
            upgrade = try retryingBusy(options) { try migrator.runNow(progress: progress) }
        case .unknownSchema(let found, let current):
            guard found.version > current.version else { throw MigrationError.unknownSchema(found: found, current: current) }
            guard options.opensReadOnly else {
                throw LibraryProblem(.newerVersion(found: found.version, known: current.version), path: path)
            }
            do {
                return try Library(url: url, createIfMissing: false, access: .readOnly(.newerVersion), upgrade: nil)
            } catch {
                throw LibraryProblem(.newerVersion(found: found.version, known: current.version), path: path, detail: "\(error)")
            }
        case .upToDate:
            // An upgrade killed right after its swap leaves its workspace; the migrator removes it.
            if FileManager.default.fileExists(atPath: migrator.workspace.path), readOnlyReason(url) == nil {
                _ = try retryingBusy(options) { try migrator.runNow(progress: progress) }
            }
        case .missing:
            break
        }

        if let reason = readOnlyReason(url) {
            guard options.opensReadOnly else { throw LibraryProblem(.readOnly(reason), path: path) }
            return try Library(url: url, createIfMissing: false, access: .readOnly(reason), upgrade: upgrade)
        }
        do {
            return try retryingBusy(options) { try Library(url: url, createIfMissing: false, access: .readWrite, upgrade: upgrade) }
        } catch let error as StoreError where (error.kind == .readOnly || error.kind == .permissionDenied) && options.opensReadOnly {
            let reason: LibraryProblem.ReadOnlyReason = StoreFiles.isReadOnlyFileSystem(at: path) ? .readOnlyFileSystem : .permission
            return try Library(url: url, createIfMissing: false, access: .readOnly(reason), upgrade: upgrade)
        }
    }

    /// Why the library cannot be written, if it cannot: a read-only file system, or a file or
    /// folder this user may not write (SQLite needs the folder for its journal files).
    static func readOnlyReason(_ url: URL) -> LibraryProblem.ReadOnlyReason? {
        if StoreFiles.isReadOnlyFileSystem(at: url.path) { return .readOnlyFileSystem }
        let files = FileManager.default
        if !files.isWritableFile(atPath: url.path) || !files.isWritableFile(atPath: url.deletingLastPathComponent().path) {
            return .permission
        }
        return nil
    }

    /// Runs `body`, again after each pause while it fails because another program holds the library.
    static func retryingBusy<T>(_ options: LibraryOpenOptions, _ body: () throws -> T) throws -> T {
        var delays = options.busyRetryDelays[...]
        while true {
            do {
                return try body()
            } catch where isBusy(error) && !delays.isEmpty {
                let delay = delays.removeFirst().components
                Thread.sleep(forTimeInterval: Double(delay.seconds) + Double(delay.attoseconds) / 1e18)
            }
        }
    }

    static func isBusy(_ error: any Error) -> Bool {
        switch error {
        case let error as StoreError: return error.kind == .busy
        case MigrationError.storeInUse: return true
        default: return false
        }
    }
}
