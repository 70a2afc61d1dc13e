import Foundation
import GtkKit
import Library
import Platform
import SyncClient

/// The banner under the main window's header bar while conflicts wait: "2 articles have
/// conflicting changes" and Resolve, which opens the conflict dialog for each open conflict in
/// turn and commits each decision through ``Library/resolveConflict(_:_:)`` (the article, its
/// outbox operation and the closed conflict in one save; the worker then sends it). Each dialog
/// shows this device's side as the article stands when it opens, and says when Keep Theirs keeps
/// this device's text as a copy; what each decision did, and why a dialog opens again, is handed
/// to ``announce``.
///
/// ```swift
/// let banner = try ConflictBanner(session: session)
/// banner.parent = mainWindow
/// contentBox.prepend(banner.widget)
/// ```
///
/// The count follows the session's status (the worker counts conflicts after every cycle) and is
/// read from the library after each resolution and on ``refresh()``. Its action
/// `conflicts.resolve` is the Resolve button.
@MainActor
public final class ConflictBanner {
    /// The banner, to place under the header bar.
    public let widget: Revealer
    /// The `conflicts` actions: `resolve`.
    public let actions: ActionGroup
    /// The window the conflict dialogs are modal to.
    public weak var parent: Window?
    /// Open conflicts, as last counted.
    public private(set) var count = 0
    /// The dialog shown now, while resolving.
    public private(set) var dialog: ConflictDialog?
    /// What last failed (reading the conflicts, or a resolution), with why in the writer's words;
    /// shown in the banner, with the details in its tooltip, until the next count.
    public private(set) var failure: String?
    /// The technical details of ``failure``.
    private var failureDetails: String?
    /// What the last resolution did (its ``ConflictOutcome/summary`` is the sentence for the writer).
    public private(set) var lastOutcome: ConflictOutcome?
    /// Called before the first dialog opens: the main window saves the open article, so that the
    /// dialogs show what the writer typed.
    public var beforeResolving: (@MainActor () -> Void)?
    /// Called with a sentence for the writer, which the main window shows in a toast: what each
    /// resolution did (its summary), or why the dialog opens again (the conflict changed while
    /// the writer decided).
    public var announce: (@MainActor (String) -> Void)?

    let label: Label
    private let session: SyncSession
    private var observation: UUID?
    private var resolving: Task<Void, Never>?

    /// Builds the banner, hidden until a count shows conflicts.
    public init(session: SyncSession) throws {
        QuireResources.register()
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "sync/sync.css")
        let builder = try Builder(resource: Quire.resourcePath + "sync/conflict-banner.ui")
        widget = try builder.object("banner_revealer")
        label = try builder.object("banner_label")
        self.session = session
        actions = ActionGroup(prefix: "conflicts", on: widget)
        actions.addAction("resolve") { [weak self] in self?.resolveAll() }
        observation = session.observe { [weak self] status in
            guard let self, self.resolving == nil, status.openConflicts != self.count else { return }
            Task { await self.refresh() }
        }
        widget.connect(.destroy) { [weak self] in
            guard let self, let observation = self.observation else { return }
            self.session.stopObserving(observation)
            self.observation = nil
        }
    }

    /// Whether the banner is shown.
    public var isShown: Bool { widget.revealsChild }

    /// The banner's text as shown.
    public var text: String { label.text }

    /// Counts the open conflicts in the library and shows or hides the banner.
    public func refresh() async {
        do {
            show(count: try await session.library.openConflicts().count)
        } catch {
            fail(gettext("Conflicts could not be read."), error)
            show(count: count)
        }
    }

    /// Opens the conflict dialog for each open conflict, oldest first, and commits each decision;
    /// Decide Later leaves a conflict open and goes on to the next. Returns at once; the work
    /// runs on the main actor until the last dialog closes (``resolution`` waits for it).
    public func resolveAll() {
        guard resolving == nil else { return }
        resolving = Task { [weak self] in
            await self?.resolveEach()
            self?.resolving = nil
        }
    }

    /// Waits until the running Resolve has gone through every conflict.
    public func resolution() async {
        await resolving?.value
    }

    private func resolveEach() async {
        failure = nil
        failureDetails = nil
        beforeResolving?()
        let conflicts: [ConflictSnapshot]
        do {
            conflicts = try await session.library.openConflicts()
        } catch {
            fail(gettext("Conflicts could not be read."), error)
            await refresh()
            return
        }
        for listed in conflicts {
            do {
                try await resolve(listed.id)
            } catch {
                dialog = nil
                fail(String(cFormat: gettext("“%s” could not be resolved."), ConflictDialog.displayTitle(listed.title)), error)
            }
        }
        await refresh()
        session.syncNow()
    }

    /// Shows the dialog for one conflict and carries out the decision. A decision is carried out
    /// only against the kind of conflict the dialog showed: when a restore, a move to the trash or
    /// the server changed that meanwhile (Delete Anyway would then send this device's text), the
    /// dialog opens again with the conflict as it is now.
    private func resolve(_ id: UUID) async throws {
        while true {
            // Read again as the dialog opens: an earlier decision or the writer may have changed it.
            let conflict = try await session.library.conflict(id)
            guard conflict.resolved == nil else { return }
            let shown = try await Self.dialogConflict(for: conflict, in: session.library)
            let presented = try ConflictDialog(conflict: shown, over: parent, copyOnKeepTheirs: Self.copyOnKeepTheirs(conflict))
            dialog = presented
            presented.present()
            let decision = await presented.awaitDecision()
            dialog = nil
            guard case let .resolve(resolution) = decision else { return }
            do {
                let outcome = try await session.library.resolveConflict(conflict.id, resolution, ifKind: conflict.kind)
                lastOutcome = outcome
                announce?(outcome.summary.translated)
                return
            } catch let error as LibraryError {
                guard case .conflictChanged = error else { throw error }
                // Nothing was carried out: the writer reads why before the dialog asks again.
                announce?(ErrorExplanation(error, libraryPath: session.library.url.path).sentence)
            }
        }
    }

    /// The dialog's view of a conflict, from this device's side as the article stands: this
    /// device's version (labelled with the article's last change) and the server's (labelled with
    /// when the conflict was found); for an article deleted here, the server's version and when
    /// it went to the trash.
    static func dialogConflict(for conflict: ConflictSnapshot, in library: Library) async throws -> ConflictDialog.Conflict {
        // An article this device deleted (and emptied from the trash) is no longer there to ask.
        let article: ArticleSnapshot?
        do {
            article = try await library.article(conflict.articleID)
        } catch LibraryError.articleNotFound {
            article = nil
        }
        let empty = ArticleContent(title: conflict.title, body: "")
        guard let remote = conflict.remote else {
            let mine = ConflictDialog.Version(content: conflict.local ?? empty, device: gettext("This device"), time: article?.updated ?? conflict.detected)
            return .deleted(mine: mine, device: gettext("the server"), time: conflict.detected)
        }
        let theirs = ConflictDialog.Version(content: remote, device: gettext("Server"), time: conflict.detected)
        guard let local = conflict.local else {
            return .deletedHere(theirs: theirs, time: article?.trashed ?? conflict.detected)
        }
        let mine = ConflictDialog.Version(content: local, device: gettext("This device"), time: article?.updated ?? conflict.detected)
        return .edited(base: conflict.base ?? empty, mine: mine, theirs: theirs)
    }

    /// The title under which Keep Theirs keeps this device's text, when it keeps it.
    static func copyOnKeepTheirs(_ conflict: ConflictSnapshot) -> String? {
        guard conflict.sides.keepTheirsKeepsCopy, let current = conflict.sides.current else { return nil }
        return ConflictResolution.conflictedCopyTitle(of: current.title)
    }

    /// Records what failed: `what`, then why as the writer reads it (``ErrorExplanation``).
    private func fail(_ what: String, _ error: any Error) {
        let explanation = ErrorExplanation(error, libraryPath: session.library.url.path)
        failure = String(cFormat: gettext("%1$s %2$s"), what, explanation.sentence)
        failureDetails = explanation.details
    }

    private func show(count: Int) {
        self.count = count
        var text = String(cFormat: ngettext("%d article has conflicting changes", "%d articles have conflicting changes", count), count)
        if let failure { text += String(cFormat: gettext(" — %s"), failure) }
        label.text = text
        label.tooltipText = failure == nil ? nil : failureDetails
        widget.revealsChild = count > 0 || failure != nil
    }
}
