import Foundation
import ObjectGraph
import Platform
import Synchronization

/// A writer's library on disk, and the operations a writer performs on it. The app and the
/// command line share it.
///
///     let library = try Library(url: Library.defaultURL())
///     let article = try await library.createArticle(ArticleContent(title: "Notes", body: "# Notes\n"))
///     try await library.editArticle(article.id, body: "# Notes\n\nFirst line.\n")
///     let found = try await library.articles(matching: ArticleQuery(searchText: "first"))
///
/// Every operation runs in a background context of its own and is one save: the articles it
/// changes and their outbox operations commit together or not at all (``LocalChanges``). Results
/// are values (snapshots, summaries, IDs), never managed objects. An operation whose save meets a
/// concurrent change of the same rows (another process, the sync worker, the view context) is run
/// again from a fresh read, a few times, before the conflict is thrown.
///
/// The app's user interface reads through ``viewContext`` (with ``ArticleQuery/fetchRequest`` for
/// its lists) and saves the editor's own context after ``LocalChanges/record(in:at:alsoChanged:)``.
public final class Library: Sendable {
    /// The store file.
    public let url: URL
    /// The object graph over the store: the view context for the app, background contexts for work.
    public let container: PersistentContainer
    /// Whether the library may be written; a read-only library says why (``LibraryProblem/ReadOnlyReason``).
    public let access: LibraryAccess
    /// The upgrade ``Library/open(at:options:progress:)`` ran before opening, if it ran one.
    public let upgrade: MigrationOutcome?
    /// Whether the library can take writes now (disk full, read-only), with its observers.
    let conditions: LibraryConditions
    /// The operations running now (``write(_:)``, ``read(_:)``), which ``close()`` lets finish.
    let operationsInFlight = DispatchGroup()
    /// Set as ``close()`` begins: a long read that only prepares for later (the sidebar counts'
    /// places of every article) gives up at its next step instead of holding the closing up
    /// (``stopIfClosing()``).
    let isClosing = Atomic(false)
    /// The clock and the history's limit, which the app (a preference) and tests set.
    private let settings = Mutex(Settings())

    private struct Settings {
        var clock: @Sendable () -> Date = Library.now
        var historySizeLimit = HistorySizeLimit.standard
    }

    /// The clock every operation reads its moment from (``now()`` unless a test sets another):
    /// what versions are recorded and thinned by.
    public var clock: @Sendable () -> Date {
        get { settings.withLock { $0.clock } }
        set { settings.withLock { $0.clock = newValue } }
    }

    /// How much text the version history may hold (the app's preference; 10 % of the library or
    /// 200 MB by default).
    public var historySizeLimit: HistorySizeLimit {
        get { settings.withLock { $0.historySizeLimit } }
        set { settings.withLock { $0.historySizeLimit = newValue } }
    }

    /// How many times an operation is run when its save conflicts with a concurrent change. Every
    /// round of conflicting saves lets one of them through, so this many concurrent writers of one
    /// row all get through.
    static let attempts = 16
    /// The pauses before an operation is run again while another connection holds the store's
    /// write lock (each after SQLite's own five-second wait).
    static let busyBackoff: [Duration] = [.milliseconds(200), .milliseconds(800), .seconds(2)]

    /// Opens the library at `url`, creating it (and its folder) when it does not exist and
    /// `createIfMissing` allows. Throws ``LibraryError/noLibrary(path:)`` for a missing library
    /// otherwise, and ObjectGraph's classified `StoreError` for a file that cannot be opened (busy,
    /// permission, incompatible schema, not a library, damaged); a file that fails to open is never
    /// changed.
    ///
    /// This opens a library of the current schema only; ``open(at:options:progress:)`` also
    /// upgrades older libraries, retries a busy one, falls back to read-only and classifies failures.
    public convenience init(url: URL, createIfMissing: Bool = true) throws {
        try self.init(url: url, createIfMissing: createIfMissing, access: .readWrite, upgrade: nil)
    }

    /// Opens the library with the access given (read-only stores are opened without writing).
    init(url: URL, createIfMissing: Bool, access: LibraryAccess, upgrade: MigrationOutcome?) throws {
        let url = url.standardizedFileURL
        if !FileManager.default.fileExists(atPath: url.path) {
            guard createIfMissing, access == .readWrite else { throw LibraryError.noLibrary(path: url.path) }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        self.url = url
        var description = StoreDescription.file(url)
        if case .readOnly(let reason) = access {
            description.isReadOnly = true
            description.readsNewerSchema = reason == .newerVersion
        }
        container = try PersistentContainer(schema: LibrarySchema.current, store: description)
        self.access = access
        self.upgrade = upgrade
        conditions = LibraryConditions(
            access: access, folder: url.deletingLastPathComponent().path, spaceNeeded: Self.spaceNeededToResume)
    }

    /// Where a writer's library lives unless they say otherwise: `quire/library.quire` in the
    /// user's data folder (`$XDG_DATA_HOME`, or `~/.local/share` when that is unset, empty or
    /// relative, as the XDG Base Directory specification asks).
    public static func defaultURL() -> URL {
        DataFolder.user.appendingPathComponent("quire", isDirectory: true).appendingPathComponent("library.quire")
    }

    /// The context of the app's user interface, on the main actor.
    @MainActor public var viewContext: ManagedObjectContext { container.viewContext }

    /// Runs `body` in a fresh background context and saves it; runs it again from a fresh read
    /// when the save conflicts with a concurrent change (a row changed since it was read, or a
    /// unique value taken meanwhile), and after a pause while another program holds the store's
    /// lock. A save that fails for want of space turns ``condition`` to `diskFull`. `body` gets the
    /// moment of the operation.
    func write<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext, Date) throws -> T) async throws -> T {
        operationsInFlight.enter()
        defer { operationsInFlight.leave() }
        var attempt = 1
        var busyPauses = Self.busyBackoff[...]
        while true {
            let context = container.newBackgroundContext()
            context.name = "library operation"
            do {
                let now = clock()
                return try await context.perform {
                    let result = try body(context, now)
                    try context.save()
                    return result
                }
            } catch ObjectGraphError.mergeConflicts(let conflicts) {
                guard attempt < Self.attempts else { throw ObjectGraphError.mergeConflicts(conflicts) }
                try await Self.pauseBeforeRetry(attempt)
                attempt += 1
            } catch let error as ValidationError where error.issues.allSatisfy(\.isUniquenessConflict) {
                // Another save took the same outbox sequence number or created the same folder or
                // tag first; a fresh read sees it.
                guard attempt < Self.attempts else { throw error }
                try await Self.pauseBeforeRetry(attempt)
                attempt += 1
            } catch let error as StoreError where error.kind == .busy {
                guard let pause = busyPauses.popFirst() else { throw error }
                try await Task.sleep(for: pause)
            } catch let error as StoreError where error.kind == .noSpace {
                conditions.reportDiskFull()
                throw error
            }
        }
    }

    /// A short random pause before running a conflicting operation again, longer with each
    /// attempt, so that writers who met on one row do not meet again on the next read.
    private static func pauseBeforeRetry(_ attempt: Int) async throws {
        try await Task.sleep(for: .microseconds(Int.random(in: 0...(attempt * 2_000))))
    }

    /// The current time as the store keeps times (seconds since 1970 in a double), so that a
    /// snapshot made before the save equals the one read after it.
    public static func now() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970)
    }

    /// Runs `body` in the view context and saves it before returning, for the app's changes that
    /// must show at once (the editor's chips and menus, a pasted image, History's restore); runs
    /// it again on the rows read afresh when the save meets a row saved elsewhere since, or a
    /// unique value (the next outbox sequence) taken meanwhile; on failure the view context is
    /// rolled back and the error thrown (a full disk also turns ``condition`` to `diskFull`).
    @MainActor
    func writeInViewContext<T>(_ body: (ManagedObjectContext, Date) throws -> T) throws -> T {
        let context = viewContext
        var attempt = 1
        while true {
            do {
                let result = try body(context, clock())
                try context.save()
                return result
            } catch ObjectGraphError.mergeConflicts(let conflicts) where attempt < Self.attempts {
                // The view context read a row that another program, or a background operation
                // whose notice has not reached the main loop yet, saved since: read those rows
                // again and make the change on them, as `write` does in a fresh context.
                context.rollback()
                for conflict in conflicts {
                    if let object = try? context.existingObject(with: conflict.objectID) {
                        try context.refresh(object, mergeChanges: false)
                    }
                }
                attempt += 1
            } catch let error as ValidationError where error.issues.allSatisfy(\.isUniquenessConflict) && attempt < Self.attempts {
                // A background save took the next outbox sequence (or created the same folder or
                // tag) meanwhile; the next attempt reads it.
                context.rollback()
                attempt += 1
            } catch {
                context.rollback()
                // As `write`: the writer learns the disk is full whichever context met it.
                if let error = error as? StoreError, error.kind == .noSpace { conditions.reportDiskFull() }
                throw error
            }
        }
    }

    /// Throws `CancellationError` once ``close()`` has begun: for a long read whose result is
    /// only worth having while the library stays open, to call between its steps.
    func stopIfClosing() throws {
        if isClosing.load(ordering: .relaxed) { throw CancellationError() }
    }

    /// Runs `body` in a fresh background context, for reading.
    func read<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        operationsInFlight.enter()
        defer { operationsInFlight.leave() }
        let context = container.newBackgroundContext()
        context.name = "library read"
        return try await context.perform { try body(context) }
    }
}

extension ValidationError.Issue {
    /// Whether the issue is a unique value another object holds.
    var isUniquenessConflict: Bool {
        if case .notUnique = reason { return true }
        return false
    }
}
