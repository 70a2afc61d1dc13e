import Foundation

/// Paces the editor's draft-recovery writes: the editor hands it the text on every change, and it
/// writes each article's latest text at most once per interval (two seconds by default), always
/// within one interval of the change. Whatever is typed is in the store two seconds later, and
/// typing costs at most one write every two seconds.
///
///     let recorder = DraftRecorder(library: library)
///     // on every buffer change:
///     await recorder.record(articleID: id, title: titleEntry.text, body: buffer.text)
///     // after the article was saved and closed:
///     try await recorder.finish(articleID: id)
public actor DraftRecorder {
    private let library: Library
    private let interval: Duration
    private var pending: [UUID: (title: String, body: String)] = [:]
    private var lastWrite: [UUID: ContinuousClock.Instant] = [:]
    private var scheduled: [UUID: Task<Void, Never>] = [:]
    /// The first failure to write, kept until ``flush()`` or ``finish(articleID:)`` throws it.
    private var failure: (any Error)?

    /// A recorder writing to `library` at most once per `interval` per article.
    public init(library: Library, interval: Duration = .seconds(2)) {
        self.library = library
        self.interval = interval
    }

    /// Takes the editor's current text; writes it now if the last write is an interval old,
    /// otherwise when it will be.
    public func record(articleID: UUID, title: String, body: String) {
        pending[articleID] = (title, body)
        guard scheduled[articleID] == nil else { return }
        let clock = ContinuousClock()
        let due = lastWrite[articleID].map { $0.advanced(by: interval) } ?? clock.now
        scheduled[articleID] = Task { [weak self] in
            if due > clock.now { try? await clock.sleep(until: due) }
            await self?.writePending(articleID)
        }
    }

    /// Writes every pending text now; throws the first failure since the last call.
    public func flush() async throws {
        for (articleID, task) in scheduled {
            task.cancel()
            scheduled[articleID] = nil
        }
        for articleID in Array(pending.keys) { await writePending(articleID) }
        if let failure {
            self.failure = nil
            throw failure
        }
    }

    /// Stops recording an article whose text was saved, and removes its draft.
    public func finish(articleID: UUID) async throws {
        scheduled[articleID]?.cancel()
        scheduled[articleID] = nil
        pending[articleID] = nil
        lastWrite[articleID] = nil
        try await library.discardDraft(for: articleID)
        if let failure {
            self.failure = nil
            throw failure
        }
    }

    private func writePending(_ articleID: UUID) async {
        scheduled[articleID] = nil
        guard let text = pending.removeValue(forKey: articleID) else { return }
        lastWrite[articleID] = ContinuousClock().now
        do {
            try await library.saveDraft(for: articleID, title: text.title, body: text.body)
        } catch {
            failure = failure ?? error
        }
    }
}
