import Foundation
import Library
import SyncClient

/// The app's side of sync for one library: the account (``AccountSettings``), the
/// ``SyncWorker`` that runs while the writer is signed in, and the status it reports, for the
/// header-bar status, the conflict banner and the preferences to share.
///
///     let session = SyncSession(library: library)
///     try await session.start()                   // signed in earlier: the worker starts
///     let status = SyncStatusButton(session: session)
///     session.syncNow()                           // Ctrl+R
///
/// Signing out stops the worker and forgets the token; the library keeps everything.
@MainActor
public final class SyncSession {
    /// The library kept in sync.
    public let library: Library
    /// Where the account and its token are kept.
    public let settings: AccountSettings
    /// The worker while signed in.
    public private(set) var worker: SyncWorker?
    /// The account signed in, if any.
    public private(set) var account: SyncAccount?
    /// The status as the worker last reported it (``SyncStatus/Activity/stopped`` while signed out).
    public private(set) var status = SyncStatus()

    private let makeWorker: @MainActor (Library, SyncAccount) -> SyncWorker
    private var following: Task<Void, Never>?
    private var observers: [UUID: @MainActor (SyncStatus) -> Void] = [:]

    /// A session for `library` with its account in `settings` (by default beside the library,
    /// the token in the Secret Service when one runs). `makeWorker` builds the worker for an
    /// account (tests pace it).
    public init(
        library: Library, settings: AccountSettings? = nil,
        makeWorker: @escaping @MainActor (Library, SyncAccount) -> SyncWorker = { SyncWorker(library: $0, account: $1) }
    ) {
        self.library = library
        self.settings = settings ?? AccountSettings(libraryURL: library.url)
        self.makeWorker = makeWorker
    }

    /// Starts syncing with the stored account, if there is one; answers it.
    @discardableResult
    public func start() async throws -> SyncAccount? {
        guard worker == nil else { return account }
        guard let stored = try settings.load() else { return nil }
        await run(stored.account)
        return stored.account
    }

    /// Stores the account (its token in ``AccountSettings/storage``), and syncs with it from now
    /// on in place of any earlier one; answers where the token went.
    @discardableResult
    public func signIn(_ account: SyncAccount) async throws -> TokenStorage {
        let storage = try settings.save(account)
        await stopWorker()
        await run(account)
        return storage
    }

    /// Stops the worker and forgets the account and its token. The library keeps every article,
    /// and changes not yet sent wait in its outbox for the next sign-in.
    public func signOut() async throws {
        await stopWorker()
        try settings.signOut()
        account = nil
    }

    /// Pushes and pulls now (Ctrl+R); nothing while signed out.
    public func syncNow() {
        worker?.syncNow()
    }

    /// Calls `body` with the status now and after every change, until the returned token is
    /// passed to ``stopObserving(_:)``.
    @discardableResult
    public func observe(_ body: @escaping @MainActor (SyncStatus) -> Void) -> UUID {
        let id = UUID()
        observers[id] = body
        body(status)
        return id
    }

    /// Stops calling an observer.
    public func stopObserving(_ id: UUID) {
        observers[id] = nil
    }

    /// Shows `status` to every observer: what the worker's feed delivers.
    func publish(_ status: SyncStatus) {
        guard status != self.status else { return }
        self.status = status
        for observer in observers.values { observer(status) }
    }

    /// Follows `feed` on the main actor in place of the one followed before.
    func follow(_ feed: SyncStatusFeed) {
        following?.cancel()
        following = Task { @MainActor [weak self] in
            for await status in feed.updates() {
                guard !Task.isCancelled else { return }
                self?.publish(status)
            }
        }
    }

    private func run(_ account: SyncAccount) async {
        let worker = makeWorker(library, account)
        self.worker = worker
        self.account = account
        follow(worker.status)
        await worker.start()
    }

    private func stopWorker() async {
        guard let worker else { return }
        self.worker = nil
        await worker.stop()
        following?.cancel()
        following = nil
        // What waits stays counted; the worker's problems and refusals are its to show.
        publish(SyncStatus(
            activity: .stopped, waitingChanges: status.waitingChanges, openConflicts: status.openConflicts, lastSynced: status.lastSynced))
    }
}
