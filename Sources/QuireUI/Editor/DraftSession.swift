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
/// - ``save()`` runs one second after the last edit (autosave), and when the writer switches
///   article, closes the window or quits: the editor's text goes into the draft, the child saves
///   into the view context, the view context records the article's outbox operation
///   (``LocalChanges``) and saves into the store, so the article and its operation commit together.
/// - Independently, the text goes to the ``DraftRecorder`` a moment after an edit (at most every
///   ``recoveryDelay`` while the writer types), which writes it to the store within the rest of
///   two seconds (the window's recorder interval is shortened by ``recoveryDelay``): a killed app
///   loses at most the last two seconds of typing.
/// - When the article changed underneath (another program, the sync worker) in its title or
///   body, the save meets the change through the merge policy and the writer decides in the
///   ``ConflictDialog``: keep mine, take theirs, or keep both. Changes of anything else (a star,
///   a folder) are taken in silently under the writer's text. A change underneath while nothing
///   is unsaved is shown in the editor instead (``showStoredContent()``, which the window calls).
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
    private let editor: EditorPane
    private let recorder: DraftRecorder
    private let library: Library
    private weak var window: Window?
    private let report: @MainActor (String, any Error) -> Void
    private var autosave: Timeout?
    /// Hands the editor's text to the recorder a moment after an edit.
    private var recovery: Timeout?
    /// Whether the body in the editor may differ from the draft's: the writer edited it since
    /// the draft last took it (``takeEditedBody()``).
    private var bodyEdited = false
    /// The body the editor shows while ``bodyEdited`` is false: the one it was given or the
    /// draft last took. Compared with the stored body after every save instead of copying a
    /// megabyte out of the editor again: after a save of this text the two share their storage,
    /// so the comparison costs nothing.
    private var shownBody: String
    /// The conflict dialog while it is open; saves wait for its decision.
    private var conflictDialog: ConflictDialog?
    private var isClosed = false
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
        editor.load(title: article.title, body: article.body)
        editor.readOnlyReason = article.trashed != nil ? gettext("This article is in the Trash.") : nil
        editor.titleChanged = { [weak self] title in self?.edited(title: title) }
        editor.bodyChanged = { [weak self] in self?.edited(body: true) }
        connectSpelling(to: editor.spelling, library: library, report: report)
    }

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
        autosave = Timeout(milliseconds: Self.autosaveDelay) { [weak self] in self?.save() }
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

    /// Saves the draft into the store now (child → view context → store, with the outbox
    /// operation). Returns whether everything the writer typed is saved; false while a conflict
    /// waits for the writer's decision or when the save failed (the error was reported, and the
    /// text stays in the draft and in draft recovery). With `endingSession` the save ends the
    /// editing session: the text's version is recorded in the same transaction
    /// (``Library/recordEndOfEditingSession(of:in:at:)``), so a crash leaves both or neither.
    @discardableResult
    func save(endingSession: Bool = false) -> Bool {
        autosave?.cancel()
        autosave = nil
        takeEditedBody()
        guard conflictDialog == nil else { return false }
        guard draft.hasChanges else { return true }
        editor.saveState = .saving
        do {
            try saveDraft()
            if try saveViewContext(endingSession: endingSession) { library.trimHistoryLater() }
            // The save may have settled the article's conflict with a clean merge (LocalChanges).
            try showStoredContent()
            editor.saveState = .saved
            return true
        } catch ObjectGraphError.mergeConflicts(let conflicts) {
            editor.saveState = .unsaved
            askAboutConflict(conflicts)
            return false
        } catch {
            editor.saveState = .unsaved
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
        let (recorder, articleID) = (recorder, articleID)
        let report = report
        return Task {
            do {
                try await recorder.finish(articleID: articleID)
            } catch {
                report(gettext("Could not remove the recovery copy of an article"), error)
            }
        }
    }

    // MARK: Saving

    /// The child into the view context. A change of the parent that leaves title and body alone
    /// is taken in under the writer's text; one that changes them is thrown as a conflict.
    private func saveDraft() throws {
        do {
            try draft.save()
        } catch ObjectGraphError.mergeConflicts(let conflicts) where !conflicts.contains(where: Self.changesContent) {
            try draft.refresh(article, mergeChanges: true)
            try draft.save()
        }
    }

    /// The view context into the store, with the outbox operation. A store that changed since
    /// the view context read it (another program; the sync worker taking the pending operation)
    /// is read again and the writer's text applied on top; when the text itself changed there,
    /// the writer's text goes back into the draft, whose next save meets the change as a conflict.
    /// Returns whether the save recorded a version (`endingSession`).
    private func saveViewContext(endingSession: Bool) throws -> Bool {
        func recordChanges() throws -> Bool {
            try LocalChanges.record(in: viewContext)
            return try endingSession ? Library.recordEndOfEditingSession(of: objectID, in: viewContext) : false
        }
        var recorded = try recordChanges()
        do {
            try viewContext.save()
        } catch ObjectGraphError.mergeConflicts(let conflicts) {
            let mine = (title: article.title, body: article.body)
            viewContext.rollback()
            for conflict in conflicts {
                if let object = try? viewContext.existingObject(with: conflict.objectID) {
                    try viewContext.refresh(object, mergeChanges: false)
                }
            }
            let current = try viewContext.existingObject(with: objectID, as: StoredArticle.self)
            if conflicts.contains(where: Self.changesContent) {
                // The draft still holds the writer's text; its next save conflicts with the parent.
                article.title = mine.title
                article.body = mine.body
                try saveDraft()
            }
            if current.title != mine.title { current.title = mine.title }
            if current.body != mine.body { current.body = mine.body }
            recorded = try recordChanges()
            try viewContext.save()
        }
        return recorded
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
        show(title: stored.title, body: stored.body)
    }

    /// Loads the editor with `title` and `body`, remembering the body it shows.
    private func show(title: String, body: String) {
        shownBody = body
        editor.load(title: title, body: body)
    }

    /// Whether a conflict is a change of the article's title or body made elsewhere.
    static func changesContent(_ conflict: MergeConflict) -> Bool {
        guard conflict.objectID.entityName == "Article" else { return false }
        guard let stored = conflict.storeSnapshot else { return true }
        return ["title", "body"].contains { conflict.objectSnapshot?[attribute: $0] != stored[attribute: $0] }
    }

    // MARK: Conflicts

    private func askAboutConflict(_ conflicts: [MergeConflict]) {
        guard let conflict = conflicts.first(where: Self.changesContent) else { return }
        let current = article.content
        let base = content(from: conflict.objectSnapshot, over: current)
        let theirs = content(from: conflict.storeSnapshot, over: current)
        let dialogConflict: ConflictDialog.Conflict
        if conflict.storeSnapshot == nil {
            dialogConflict = .deleted(mine: .init(content: current, device: gettext("This device"), time: Date()), device: gettext("another window"), time: Date())
        } else {
            let theirTime = conflict.storeSnapshot?[attribute: "updated"]?.swiftValue as? Date ?? Date()
            dialogConflict = .edited(
                base: base, mine: .init(content: current, device: gettext("This device"), time: Date()),
                theirs: .init(content: theirs, device: gettext("Elsewhere"), time: theirTime))
        }
        do {
            let dialog = try ConflictDialog(conflict: dialogConflict, over: window)
            conflictDialog = dialog
            dialog.decided = { [weak self] decision in self?.apply(decision, theirs: theirs) }
            dialog.present()
        } catch {
            report(gettext("Could not show the conflict"), error)
        }
    }

    /// The article's content with the title and body of a snapshot.
    private func content(from snapshot: ObjectSnapshot?, over current: ArticleContent) -> ArticleContent {
        var content = current
        if case .string(let title)? = snapshot?[attribute: "title"] { content.title = title }
        if case .string(let body)? = snapshot?[attribute: "body"] { content.body = body }
        return content
    }

    private func apply(_ decision: ConflictDialog.Decision, theirs: ArticleContent) {
        conflictDialog = nil
        switch decision {
        case .decideLater:
            // The text stays in the draft (and in draft recovery); the next save asks again.
            return
        case .resolve(.keepMine), .resolve(.restoreMine), .resolve(.merged):
            if case .resolve(.merged(let merged)) = decision {
                article.title = merged.title
                article.body = merged.body
                show(title: merged.title, body: merged.body)
                bodyEdited = false
                editor.saveState = .unsaved
            }
            // Reading the article as it is now, with the writer's text on top, makes the next
            // save go through; an article deleted meanwhile keeps the text as a new article.
            if (try? draft.refresh(article, mergeChanges: true)) == nil || article.isInaccessible {
                keepAsNewArticle(article.content)
                return
            }
            save()
        case .resolve(.keepTheirs), .resolve(.acceptDelete):
            takeTheirs()
        case .resolve(.keepBoth):
            keepAsNewArticle(article.content.withTitle(ConflictResolution.conflictedCopyTitle(of: article.title)))
            takeTheirs()
        }
    }

    /// Drops the writer's edits and shows the article as it is now.
    private func takeTheirs() {
        draft.rollback()
        try? draft.refresh(article, mergeChanges: false)
        show(title: article.title, body: article.body)
        bodyEdited = false
        let (recorder, articleID, report) = (recorder, articleID, report)
        Task {
            do {
                try await recorder.finish(articleID: articleID)
            } catch {
                report(gettext("Could not remove the recovery copy of an article"), error)
            }
        }
    }

    private func keepAsNewArticle(_ content: ArticleContent) {
        let (library, report) = (library, report)
        Task {
            do {
                try await library.createArticle(content)
            } catch {
                report(gettext("Could not keep your version as a new article"), error)
            }
        }
    }
}

extension ArticleContent {
    /// The same content under another title.
    func withTitle(_ title: String) -> ArticleContent {
        var content = self
        content.title = title
        return content
    }
}
