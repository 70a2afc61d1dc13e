import Foundation
import ObjectGraph
import Synchronization

/// Whether a library can take writes now. The app shows a banner for anything but `writable`
/// (``LibraryProblem`` has the words) and observes ``Library/conditionUpdates()`` to take it away.
public enum LibraryCondition: Sendable, Hashable {
    /// Saves go through.
    case writable
    /// A save failed because the disk is full (`available` bytes were free when last looked at).
    /// Nothing more is written to the store until ``Library/spaceNeededToResume`` bytes are free
    /// again, which the library checks every few seconds; the editor keeps its text in memory and
    /// ``DraftRecorder`` keeps it in the ``DraftRescueFile`` meanwhile.
    case diskFull(available: Int64?)
    /// The library was opened read-only.
    case readOnly(LibraryProblem.ReadOnlyReason)
}

/// The current condition of one library, its observers, and the watch for free space while the
/// disk is full.
final class LibraryConditions: Sendable {
    /// What may change, behind one lock.
    private struct State {
        var current: LibraryCondition
        var observers: [UUID: AsyncStream<LibraryCondition>.Continuation] = [:]
        var watch: Task<Void, Never>?
    }

    private let state: Mutex<State>
    /// The folder whose file system is watched.
    private let folder: String
    private let pollInterval: Duration
    private let spaceNeeded: Int64
    private let availableSpace: @Sendable (String) throws -> Int64

    init(
        access: LibraryAccess, folder: String, pollInterval: Duration = .seconds(2), spaceNeeded: Int64,
        availableSpace: @escaping @Sendable (String) throws -> Int64 = StoreFiles.availableSpace(at:)
    ) {
        if case .readOnly(let reason) = access {
            state = Mutex(State(current: .readOnly(reason)))
        } else {
            state = Mutex(State(current: .writable))
        }
        self.folder = folder
        self.pollInterval = pollInterval
        self.spaceNeeded = spaceNeeded
        self.availableSpace = availableSpace
    }

    deinit { state.withLock { $0.watch?.cancel() } }

    var condition: LibraryCondition { state.withLock { $0.current } }

    /// A stream of conditions, starting with the current one.
    func updates() -> AsyncStream<LibraryCondition> {
        let (stream, continuation) = AsyncStream.makeStream(of: LibraryCondition.self, bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        state.withLock { state in
            state.observers[id] = continuation
            continuation.yield(state.current)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// A write failed for want of space: the condition becomes `diskFull`, and the free space is
    /// watched until writes may resume.
    func reportDiskFull() {
        let available = try? availableSpace(folder)
        set(.diskFull(available: available))
        state.withLock { state in
            guard state.watch == nil else { return }
            let interval = pollInterval
            state.watch = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self, self.checkSpace() != .writable else { break }
                }
                self?.state.withLock { $0.watch = nil }
            }
        }
    }

    /// Looks at the free space now: a full disk with enough space again becomes `writable`.
    @discardableResult
    func checkSpace() -> LibraryCondition {
        guard case .diskFull = condition else { return condition }
        let available = try? availableSpace(folder)
        set((available ?? 0) >= spaceNeeded ? .writable : .diskFull(available: available))
        return condition
    }

    private func set(_ condition: LibraryCondition) {
        state.withLock { state in
            guard state.current != condition else { return }
            state.current = condition
            for observer in state.observers.values { observer.yield(condition) }
        }
    }
}

extension Library {
    /// The free bytes a full disk must have again before the library writes anew: room for a few
    /// saves' log frames and checkpoints.
    public static let spaceNeededToResume: Int64 = 16 << 20

    /// Whether the library can take writes now.
    public var condition: LibraryCondition { conditions.condition }

    /// Every change of ``condition``, starting with the current one (for the app's banner and for
    /// ``DraftRecorder``, which saves its held drafts when the disk has space again).
    public func conditionUpdates() -> AsyncStream<LibraryCondition> { conditions.updates() }

    /// Looks at the free space at once (the banner's "Try Again"), rather than at the next watch.
    @discardableResult
    public func checkSpaceAgain() -> LibraryCondition { conditions.checkSpace() }

    /// The library's rescue file, for drafts the store could not take.
    public var draftRescueFile: DraftRescueFile { DraftRescueFile(libraryURL: url) }

    /// Brings drafts a stopped app left in the rescue file into the store's draft recovery (each
    /// newer than the draft the store holds for its article), then empties the file; returns how
    /// many. Call on start, before ``unrecoveredDrafts()``, which then offers them. Drafts of
    /// articles that no longer exist become articles of their own, so no text is lost.
    @discardableResult
    public func adoptRescuedDrafts() async throws -> Int {
        let rescued = try draftRescueFile.read()
        guard !rescued.isEmpty else { return 0 }
        let held = try await read { context in
            Dictionary(try context.fetch(FetchRequest<DraftRecovery>()).compactMap { draft in
                draft.article.map { ($0.id, draft.saved) }
            }, uniquingKeysWith: max)
        }
        var adopted = 0
        for draft in rescued where held[draft.articleID].map({ $0 < draft.saved }) ?? true {
            do {
                try await saveDraft(for: draft.articleID, title: draft.title, body: draft.body, at: draft.saved)
            } catch LibraryError.articleNotFound {
                try await createArticle(ArticleContent(title: draft.title.isEmpty ? "Rescued draft" : draft.title, body: draft.body))
            }
            adopted += 1
        }
        try draftRescueFile.write([])
        return adopted
    }
}
