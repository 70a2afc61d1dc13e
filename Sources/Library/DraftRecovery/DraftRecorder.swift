import Foundation
import ObjectGraph

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
///
/// When the disk is full (a draft's save fails for want of space, or the library's ``Library/condition``
/// says so), the texts are held in memory and written to the library's ``DraftRescueFile`` (made at
/// its full size when the recorder starts, so it needs no new space), and saved to the store as
/// soon as the library has space again; ``heldDrafts`` lists them meanwhile. A rescue file whose
/// space could not be set aside at the start is set aside after the next draft the store takes:
/// the disk has room again.
///
/// A failure of the recorder's own work is a ``DraftRecorderFailure`` naming the step that failed,
/// handed on by the next ``flush()`` or ``finish(articleID:)``.
public actor DraftRecorder {
    private let library: Library
    private let interval: Duration
    private let rescue: DraftRescueFile
    private var pending: [UUID: (title: String, body: String)] = [:]
    private var lastWrite: [UUID: ContinuousClock.Instant] = [:]
    private var scheduled: [UUID: Task<Void, Never>] = [:]
    /// Texts the store could not take, until it can; also in the rescue file.
    private var held: [UUID: RescuedDraft] = [:]
    /// Waits for the library to take writes again, while texts are held.
    private var resumption: Task<Void, Never>?
    /// The first failure, kept until ``flush()`` or ``finish(articleID:)`` throws it.
    private var failure: DraftRecorderFailure?
    /// Whether the rescue file has its full size on disk (``DraftRescueFile/prepare()``).
    private var rescueSpaceReserved = false
    /// Each article's write on its way to the store. Writes of one article run one after another,
    /// and ``finish(articleID:)`` removes the draft only after the last of them: the actor lets
    /// `finish` in while a write awaits the store, and a write landing after the removal would be
    /// offered back on the next start as unsaved text, older than the article's.
    private var writing: [UUID: Task<Void, any Error>] = [:]

    /// A recorder writing to `library` at most once per `interval` per article, and to `rescue`
    /// (the library's rescue file by default) when the store cannot take a text.
    public init(library: Library, interval: Duration = .seconds(2), rescue: DraftRescueFile? = nil) {
        self.library = library
        self.interval = interval
        let rescue = rescue ?? library.draftRescueFile
        self.rescue = rescue
        if library.access == .readWrite {
            do {
                try rescue.prepare()
                rescueSpaceReserved = true
            } catch {
                failure = DraftRecorderFailure(step: .reservingRescueSpace, error: error)
            }
        }
    }

    /// The texts held because the disk is full, oldest first (they are in the rescue file too).
    public var heldDrafts: [RescuedDraft] { held.values.sorted { $0.saved < $1.saved } }

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

    /// Writes every pending text now; throws the first failure since the last call, or a
    /// ``LibraryProblem`` of kind `diskFull` while texts are held for want of space.
    public func flush() async throws {
        for (articleID, task) in scheduled {
            task.cancel()
            scheduled[articleID] = nil
        }
        for articleID in Array(pending.keys) { await writePending(articleID) }
        if !held.isEmpty, library.checkSpaceAgain() == .writable { await saveHeldDrafts() }
        try throwFailure()
        if !held.isEmpty {
            throw LibraryProblem(.diskFull(available: nil), path: library.url.path, detail: "\(held.count) drafts are held")
        }
    }

    /// Stops recording an article whose text was saved, and removes its draft; throws a
    /// ``DraftRecorderFailure``. (Not declared as a typed throw: Swift 6.3's optimizer crashes
    /// splitting the actor's async functions that call one, so a release build failed.)
    public func finish(articleID: UUID) async throws {
        scheduled[articleID]?.cancel()
        scheduled[articleID] = nil
        pending[articleID] = nil
        lastWrite[articleID] = nil
        if held.removeValue(forKey: articleID) != nil { writeRescueFile() }
        _ = await writing[articleID]?.result
        do {
            try await library.discardDraft(for: articleID)
        } catch {
            throw DraftRecorderFailure(step: .removingRecoveryCopy, error: error)
        }
        try throwFailure()
    }

    /// Throws the failure kept since the last call, if any.
    private func throwFailure() throws {
        guard let failure else { return }
        self.failure = nil
        throw failure
    }

    /// Keeps the first failure for ``flush()`` or ``finish(articleID:)`` to throw.
    private func keep(_ error: any Error, of step: DraftRecorderFailure.Step) {
        failure = failure ?? DraftRecorderFailure(step: step, error: error)
    }

    private func writePending(_ articleID: UUID) async {
        scheduled[articleID] = nil
        guard let text = pending.removeValue(forKey: articleID) else { return }
        lastWrite[articleID] = ContinuousClock().now
        let draft = RescuedDraft(articleID: articleID, title: text.title, body: text.body, saved: Date())
        if case .diskFull = library.condition {
            hold(draft)
            return
        }
        do {
            try await save(draft)
            if held.removeValue(forKey: articleID) != nil { writeRescueFile() }
        } catch let error as StoreError where error.kind == .noSpace {
            hold(draft)
        } catch {
            keep(error, of: .savingRecoveryCopy)
        }
    }

    /// Writes `draft` to the store after the article's write on its way, if any. A store that took
    /// it has room: a rescue file still without its space gets it now.
    private func save(_ draft: RescuedDraft) async throws {
        let earlier = writing[draft.articleID]
        let library = library
        let write = Task {
            _ = await earlier?.result
            try await library.saveDraft(for: draft.articleID, title: draft.title, body: draft.body, at: draft.saved)
        }
        writing[draft.articleID] = write
        defer { if writing[draft.articleID] == write { writing[draft.articleID] = nil } }
        try await write.value
        // Quietly: the writer was told when the first attempt failed.
        if !rescueSpaceReserved, (try? rescue.prepare()) != nil { rescueSpaceReserved = true }
    }

    /// Keeps a text the store cannot take, in memory and in the rescue file, and waits for space.
    private func hold(_ draft: RescuedDraft) {
        held[draft.articleID] = draft
        writeRescueFile()
        guard resumption == nil else { return }
        let updates = library.conditionUpdates()
        resumption = Task { [weak self] in
            for await condition in updates where condition == .writable {
                guard let self else { return }
                if await self.saveHeldDrafts() { return }
            }
        }
    }

    /// Saves the held texts to the store; returns whether all went in.
    @discardableResult
    private func saveHeldDrafts() async -> Bool {
        for draft in heldDrafts {
            // A newer text of the same article may have arrived while this one was being saved.
            guard held[draft.articleID] == draft else { continue }
            do {
                try await save(draft)
                if held[draft.articleID] == draft { held[draft.articleID] = nil }
            } catch let error as StoreError where error.kind == .noSpace {
                writeRescueFile()
                return false
            } catch {
                // The text stays held (and in the rescue file); the failure is reported.
                keep(error, of: .savingRecoveryCopy)
            }
        }
        writeRescueFile()
        if held.isEmpty {
            resumption?.cancel()
            resumption = nil
            return true
        }
        return false
    }

    private func writeRescueFile() {
        do {
            try rescue.write(heldDrafts)
        } catch {
            keep(error, of: .writingRescueFile)
        }
    }
}

/// A failure of the ``DraftRecorder``'s own work, and the step that failed, so that the writer is
/// told what did not happen.
public struct DraftRecorderFailure: Error, Sendable, CustomStringConvertible {
    /// The recorder's steps.
    public enum Step: String, Sendable, Hashable {
        /// Setting aside the rescue file's space (``DraftRescueFile/prepare()``).
        case reservingRescueSpace
        /// Writing the held texts to the rescue file.
        case writingRescueFile
        /// Saving the editor's text to the store as the article's recovery copy.
        case savingRecoveryCopy
        /// Removing the recovery copy of an article whose text was saved.
        case removingRecoveryCopy
    }

    /// What failed.
    public var step: Step
    /// Why.
    public var error: any Error

    /// The failure of `step`, for `error`.
    public init(step: Step, error: any Error) {
        self.step = step
        self.error = error
    }

    /// The step and the error, for the details of an error dialog.
    public var description: String { "\(step.rawValue): \(error)" }
}
