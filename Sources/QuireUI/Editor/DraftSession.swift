import Foundation
import GtkKit
import Library
import ObjectGraph
import Platform

/// One article open in the editor: its draft object in a child context of the view context, the
/// autosave, and the draft-recovery copy of the writer's text.
///
/// - Every edit of the title goes into the draft object at once; the body is read out of the
///   editor when it is needed (a save, the recovery copy, ``hasUnsavedChanges``), since a
///   book-length body is a megabyte to copy and every keystroke would copy it. The view context
///   and the store see nothing until a save.
/// - The text is saved one second after the last edit (autosave), and when the writer switches
///   article, closes the window or quits: the editor's text goes into the draft, and Library saves
///   it with its outbox operation in a background context of its own
///   (``Library/saveEditorText(_:)``), so that the save of a book (the full-text index, the
///   outbox, the commit) never holds up typing. The status line says "Saved" only once that
///   commit has returned. The autosave does not wait for it; ``save(endingSession:)`` does, for
///   the steps that need the text in the store first. One save runs at a time: an autosave due
///   meanwhile starts when it is done, with the text typed since.
/// - Independently, the text goes to the ``DraftRecorder`` a moment after an edit (at most every
///   ``recoveryDelay`` while the writer types), which writes it to the store within the rest of
///   two seconds (the window's recorder interval is shortened by ``recoveryDelay``): a killed app
///   loses at most the last two seconds of typing.
/// - When the article changed underneath (another program, the sync worker) in its title or
///   body since the text the writer started from (``base``), the save saves nothing and the
///   writer decides in the ``ConflictDialog``: keep mine, take theirs, or keep both. Changes of
///   anything else (a star, a folder) are taken in silently under the writer's text. A change
///   underneath while nothing is unsaved is shown in the editor instead (``showStoredContent()``,
///   which the window calls).
@MainActor
final class DraftSession {
    /// The article's ID in the store.
    let articleID: UUID
    /// The article's object ID.
    let objectID: ManagedObjectID
    /// The child context holding the draft.
    let draft: ManagedObjectContext
    /// The draft object.
    let article: StoredArticle
    /// How long the writer pauses before the text is saved.
    static let autosaveDelay: UInt32 = 1000
    /// How long after an edit the text goes to the ``DraftRecorder`` (milliseconds); edits
    /// meanwhile go with it.
    static let recoveryDelay: UInt32 = 250

    private let viewContext: ManagedObjectContext
    let editor: EditorPane
    private let recorder: DraftRecorder
    let library: Library
    private(set) weak var window: Window?
    let report: @MainActor (String, any Error) -> Void
    private var autosave: Timeout?
    /// Hands the editor's text to the recorder a moment after an edit.
    private var recovery: Timeout?
    /// Whether the body in the editor may differ from the draft's: the writer edited it since
    /// the draft last took it (``takeEditedBody()``).
    var bodyEdited = false
    /// The body the editor shows while ``bodyEdited`` is false: the one it was given or the
    /// draft last took. Compared with the stored body after every save instead of copying a
    /// megabyte out of the editor again: after a save of this text the two share their storage,
    /// so the comparison costs nothing.
    private var shownBody: String
    /// The title and body the writer's text was written over: as loaded, last saved or last
    /// shown from the store. A save that finds others in the store meets a conflict.
    var base: (title: String, body: String)
    /// The save running off the main thread, if one is.
    private var running: EditorSaveRun?
    /// Whether an autosave came while a save ran: it saves when that one is done.
    private var saveAgain = false
    /// The conflict dialog while it is open; saves wait for its decision.
    var conflictDialog: ConflictDialog?
    /// Whether the editor no longer shows this session (``close()``, until ``reopen()``): a
    /// closed session's conflict dialog still carries out the writer's decision, in the store
    /// only, since the editor shows another article.
    private(set) var isClosed = false
    /// Called after each edit of the writer (the window's wait for a long pause).
    var afterEdit: (@MainActor () -> Void)?

    /// Opens the article in `editor`. `report` shows an error the writer must know of.
    init(
        objectID: ManagedObjectID, viewContext: ManagedObjectContext, library: Library, recorder: DraftRecorder,
        editor: EditorPane, window: Window?, report: @escaping @MainActor (String, any Error) -> Void
    ) throws {
        self.objectID = objectID
        self.viewContext = viewContext
        self.library = library
        self.recorder = recorder
        self.editor = editor
        self.window = window
        self.report = report
        draft = viewContext.newChildContext()
        draft.name = "editor draft"
        draft.automaticallyMergesChangesFromParent = true
        article = try draft.existingObject(with: objectID, as: StoredArticle.self)
        articleID = article.id
        shownBody = article.body
        base = (article.title, article.body)
        showInEditor()
    }

    /// Shows the draft's text in the editor and takes the writer's edits from it.
    private func showInEditor() {
        show(title: article.title, body: article.body)
        editor.readOnlyReason = article.trashed != nil ? gettext("This article is in the Trash.") : nil
        editor.titleChanged = { [weak self] title in self?.edited(title: title) }
        editor.bodyChanged = { [weak self] in self?.edited(body: true) }
        connectSpelling(to: editor.spelling, library: library, report: report)
    }

    /// Takes the editor again after ``close()`` left the writer's text unsaved (a conflict they
    /// left to decide later, a save that failed): the editor shows that text, not the store's,
    /// and the next save tries again, asking again about a conflict. Without this, the article
    /// opened again would show the store's text, and the recovery copy of the writer's would be
    /// replaced by the next edit's.
    func reopen() {
        isClosed = false
        showInEditor()
        editor.saveState = .unsaved
    }

    /// The editor while it shows this session; nil once closed.
    var shownEditor: EditorPane? { isClosed ? nil : editor }

    /// Whether the writer's text holds edits the store does not have yet (asking puts the
    /// editor's body into the draft).
    var hasUnsavedChanges: Bool {
        takeEditedBody()
        return draft.hasChanges
    }

    private func edited(title: String? = nil, body: Bool = false) {
        guard !isClosed else { return }
        if let title, article.title != title { article.title = title }
        if body { bodyEdited = true }
        if recovery?.isPending != true {
            recovery = Timeout(milliseconds: Self.recoveryDelay) { [weak self] in self?.recordRecoveryCopy() }
        }
        autosave?.cancel()
        autosave = Timeout(milliseconds: Self.autosaveDelay) { [weak self] in self?.saveInBackground() }
        afterEdit?()
    }

    /// Puts the editor's body into the draft if the writer edited it since the draft last took it.
    private func takeEditedBody() {
        guard bodyEdited, !isClosed else { return }
        bodyEdited = false
        let body = editor.body
        shownBody = body
        if article.body != body { article.body = body }
    }

    /// Hands the writer's text, as the editor shows it now, to the draft recorder.
    private func recordRecoveryCopy() {
        guard !isClosed else { return }
        let (articleID, title, body, recorder) = (articleID, editor.title, editor.body, recorder)
        Task { await recorder.record(articleID: articleID, title: title, body: body) }
    }

    /// Saves the draft into the store now and waits for it, for the window's steps that need the
    /// text in the store before they go on (switching article, History, Ctrl+S, quitting). A save
    /// running in the background is waited for first, so the later text is saved last. Returns
    /// whether everything the writer typed is saved; false while a conflict waits for the writer's
    /// decision or when the save failed (the error was reported, and the text stays in the draft
    /// and in draft recovery). With `endingSession` the save ends the editing session: the text's
    /// version is recorded in the same transaction (``Library/recordEndOfEditingSession(of:in:at:)``),
    /// so a crash leaves both or neither.
    @discardableResult
    func save(endingSession: Bool = false) -> Bool {
        autosave?.cancel()
        autosave = nil
        if let running {
            running.wait()
            finish(running, mergedIntoViewContext: false)
        }
        saveAgain = false
        guard let run = startSave(endingSession: endingSession) else { return conflictDialog == nil }
        run.wait()
        return finish(run, mergedIntoViewContext: false)
    }

    /// The autosave: the same save, without waiting for it. The editor says "Saved" when it has
    /// committed; edits meanwhile stay in the editor and are saved by the next one, which starts
    /// when this one is done (never two at once, so an older text cannot land after a newer one).
    private func saveInBackground() {
        autosave = nil
        guard running == nil else {
            saveAgain = true
            return
        }
        guard let run = startSave(endingSession: false) else { return }
        Task { [weak self] in
            _ = await run.task.value
            guard let self, self.running === run else { return }
            // The store queued its merge into the view context on the main queue as the save
            // committed, before this continuation: the view context has it.
            self.finish(run, mergedIntoViewContext: true)
            if self.saveAgain {
                self.saveAgain = false
                self.saveInBackground()
            }
        }
    }

    /// Hands the draft's text to Library's save off the main thread (nil when there is nothing to
    /// save, or a conflict waits for the writer).
    private func startSave(endingSession: Bool) -> EditorSaveRun? {
        takeEditedBody()
        guard conflictDialog == nil, draft.hasChanges else { return nil }
        shownEditor?.saveState = .saving
        let text = Library.EditorText(
            articleID: articleID, title: article.title, body: article.body,
            language: article.changedValues()["language"] == nil ? nil : article.language,
            base: base, endingSession: endingSession)
        let run = EditorSaveRun(text, library: library)
        running = run
        return run
    }

    /// Takes in the outcome of a save that has returned. Returns whether the text is saved.
    @discardableResult
    private func finish(_ run: EditorSaveRun, mergedIntoViewContext: Bool) -> Bool {
        running = nil
        switch run.outcome() {
        case .success(.saved(let recordedVersion)):
            if recordedVersion { library.trimHistoryLater() }
            do {
                try takeInSaved(run.text, mergedIntoViewContext: mergedIntoViewContext)
            } catch {
                // Saved; only reading it back for the editor failed.
                report(String(cFormat: gettext("Could not show the changes to “%s”"), ConflictDialog.displayTitle(article.title)), error)
            }
            return true
        case .success(.conflict(let theirs)):
            shownEditor?.saveState = .unsaved
            askAboutConflict(theirs: theirs)
            return false
        case .failure(let error):
            shownEditor?.saveState = .unsaved
            report(String(cFormat: gettext("Could not save “%s”"), ConflictDialog.displayTitle(article.title)), error)
            return false
        }
    }

    /// Saves and stops editing: the editor no longer writes into this draft. Once the text is
    /// saved, its draft-recovery copy is removed by the returned task (nil when the text could
    /// not be saved and the copy stays); whoever quits waits for it, or the next start would
    /// offer back a copy older than the saved text.
    @discardableResult
    func close() -> Task<Void, Never>? {
        let saved = save(endingSession: true)
        if recovery?.isPending == true {
            // Typed a moment ago and not saved: the recorder keeps it.
            recovery?.cancel()
            if !saved { recordRecoveryCopy() }
        }
        isClosed = true
        autosave?.cancel()
        editor.titleChanged = nil
        editor.bodyChanged = nil
        guard saved else { return nil }
        return removeRecoveryCopy()
    }

    /// Stops recording the article and removes its recovery copy, now that the text it kept is
    /// saved (``DraftRecorder/finish(articleID:)``), and reports what failed: the removal, or
    /// earlier work of the recorder's that it hands on here.
    @discardableResult
    func removeRecoveryCopy() -> Task<Void, Never> {
        let (recorder, articleID, report) = (recorder, articleID, report)
        return Task {
            do {
                try await recorder.finish(articleID: articleID)
            } catch let failure as DraftRecorderFailure {
                report(Self.heading(forRecorderStep: failure.step), failure)
            } catch {
                // finish throws only DraftRecorderFailure; anything else is said as a removal.
                report(Self.heading(forRecorderStep: .removingRecoveryCopy), error)
            }
        }
    }

    /// What did not happen, for a failure of the recorder at `step`.
    private static func heading(forRecorderStep step: DraftRecorderFailure.Step) -> String {
        switch step {
        case .reservingRescueSpace: gettext("Could not set aside space for a spare copy of unsaved text")
        case .writingRescueFile: gettext("Could not write the spare copy of unsaved text")
        case .savingRecoveryCopy: gettext("Could not save the recovery copy of an article")
        case .removingRecoveryCopy: gettext("Could not remove the recovery copy of an article")
        }
    }

    // MARK: Saving

    /// After a save: the view context and the draft read the article as saved, keeping what the
    /// writer typed meanwhile (a title in the draft; a body still in the editor, ``bodyEdited``).
    private func takeInSaved(_ text: Library.EditorText, mergedIntoViewContext: Bool) throws {
        if !mergedIntoViewContext { _ = try readStored() }
        // What the writer's next edits go over: the text saved, even if the store has moved on
        // since (the sync worker), so that their next save meets that change instead of hiding it.
        base = (text.title, text.body)
        let (title, body, language) = (article.title, article.body, article.language)
        try draft.refresh(article, mergeChanges: false)
        if article.title != title { article.title = title }
        if article.body != body { article.body = body }
        if article.language != language { article.language = language }
        if shownEditor?.saveState == .saving { editor.saveState = .saved }
        // The save may have settled the article's conflict with a clean merge (LocalChanges).
        try showStoredContent()
    }

    /// Takes the article as the view context holds it as the text the editor shows and the
    /// writer's next edits go over, dropping the draft's: for a change the window saved in the
    /// view context and shows in the editor itself (History's restore).
    func adoptStored() throws {
        let stored = try viewContext.existingObject(with: objectID, as: StoredArticle.self)
        try draft.refresh(article, mergeChanges: false)
        base = (stored.title, stored.body)
        shownBody = stored.body
        bodyEdited = false
    }

    /// The article in the view context as the store holds it now. The view context merges a
    /// background save from the main queue: after a save the main thread waited for, later than
    /// what runs next here (a version at the session's end, the History panel), so its row is
    /// read again now; a failed read throws (``ObjectGraphError/objectNotFound(_:)`` for an
    /// article deleted meanwhile).
    func readStored() throws -> StoredArticle {
        let stored = try viewContext.existingObject(with: objectID, as: StoredArticle.self)
        if !stored.hasChanges { try viewContext.refresh(stored, mergeChanges: true) }
        return stored
    }

    /// Shows the article's title and body as the view context holds them when they changed
    /// without the editor and the draft holds nothing unsaved: a save that settled the article's
    /// conflict with a clean merge (``LocalChanges``), a conflict resolved from the banner, a
    /// version the sync worker took or merged. Otherwise the next save would send the editor's
    /// older text over them. (With unsaved text, the next save meets the change and asks.)
    func showStoredContent() throws {
        guard !isClosed, !hasUnsavedChanges, conflictDialog == nil else { return }
        let stored = try viewContext.existingObject(with: objectID, as: StoredArticle.self)
        guard stored.title != editor.title || stored.body != shownBody else { return }
        try draft.refresh(article, mergeChanges: false)
        base = (stored.title, stored.body)
        show(title: stored.title, body: stored.body)
    }

    /// Loads the editor with `title` and `body`, remembering the body it shows (nothing once the
    /// session is closed: the editor shows another article).
    func show(title: String, body: String) {
        guard !isClosed else { return }
        shownBody = body
        editor.load(title: title, body: body)
    }
}
