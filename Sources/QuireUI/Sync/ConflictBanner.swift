import CGtk
import Foundation
import GtkKit
import Library
import SyncClient

/// The banner under the main window's header bar while conflicts wait: "2 articles have
/// conflicting changes" and Resolve, which opens the conflict dialog for each open conflict in
/// turn and commits each decision through ``Library/resolveConflict(_:_:)`` (the article, its
/// outbox operation and the closed conflict in one save; the worker then sends it).
///
/// ```swift
/// let banner = try ConflictBanner(session: session)
/// banner.parent = mainWindow
/// gtk_box_prepend(contentBox, banner.widget.widgetPointer)
/// ```
///
/// The count follows the session's status (the worker counts conflicts after every cycle) and is
/// read from the library after each resolution and on ``refresh()``. Its action
/// `conflicts.resolve` is the Resolve button.
@MainActor
public final class ConflictBanner {
    /// The banner (a `GtkRevealer`), to place under the header bar.
    public let widget: Widget
    /// The `conflicts` actions: `resolve`.
    public let actions: ActionGroup
    /// The window the conflict dialogs are modal to.
    public weak var parent: Window?
    /// Open conflicts, as last counted.
    public private(set) var count = 0
    /// The dialog shown now, while resolving.
    public private(set) var dialog: ConflictDialog?
    /// The last resolution that failed, with why; shown in the banner until the next count.
    public private(set) var failure: String?

    let label: Widget
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
    public var isShown: Bool { gtk_revealer_get_reveal_child(widget.opaquePointer) != 0 }

    /// The banner's text as shown.
    public var text: String { String(cString: gtk_label_get_label(label.opaquePointer)) }

    /// Counts the open conflicts in the library and shows or hides the banner.
    public func refresh() async {
        do {
            show(count: try await session.library.openConflicts().count)
        } catch {
            failure = "Conflicts could not be read: \(error)"
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
        let conflicts: [ConflictSnapshot]
        do {
            conflicts = try await session.library.openConflicts()
        } catch {
            failure = "Conflicts could not be read: \(error)"
            await refresh()
            return
        }
        for conflict in conflicts {
            do {
                let deletedHere = conflict.local == nil && conflict.remote != nil
                let shown = try await Self.dialogConflict(for: conflict, in: session.library)
                let presented = try ConflictDialog(conflict: shown, over: parent)
                if deletedHere { Self.askDeleteAnywayOrKeepTheirs(presented, shown) }
                dialog = presented
                presented.present()
                let decision = await presented.awaitDecision()
                dialog = nil
                guard case let .resolve(resolution) = decision else { continue }
                try await session.library.resolveConflict(conflict.id, deletedHere ? Self.deletedHereResolution(resolution) : resolution)
            } catch {
                dialog = nil
                failure = "“\(ConflictDialog.displayTitle(conflict.local?.title ?? conflict.remote?.title ?? ""))” could not be resolved: \(error)"
            }
        }
        await refresh()
        session.syncNow()
    }

    /// The dialog's view of a conflict: this device's version (labelled with the article's last
    /// change) and the server's (labelled with when the conflict was found). An article deleted
    /// here and changed on the server is an edit-versus-delete conflict seen from the other side:
    /// the deletion dialog shows the server's version, deleted on this device when it went to
    /// the trash (``askDeleteAnywayOrKeepTheirs(_:_:)`` words it).
    static func dialogConflict(for conflict: ConflictSnapshot, in library: Library) async throws -> ConflictDialog.Conflict {
        // An article this device deleted (and emptied from the trash) is no longer there to ask.
        let article: ArticleSnapshot?
        do {
            article = try await library.article(conflict.articleID)
        } catch LibraryError.articleNotFound {
            article = nil
        }
        let empty = ArticleContent(title: conflict.base?.title ?? conflict.remote?.title ?? "", body: "")
        guard let remote = conflict.remote else {
            let mine = ConflictDialog.Version(content: conflict.local ?? empty, device: "This device", time: article?.updated ?? conflict.detected)
            return .deleted(mine: mine, device: "the server", time: conflict.detected)
        }
        let theirs = ConflictDialog.Version(content: remote, device: "Server", time: conflict.detected)
        guard let local = conflict.local else {
            return .deleted(mine: theirs, device: "this device", time: article?.trashed ?? conflict.detected)
        }
        let mine = ConflictDialog.Version(content: local, device: "This device", time: article?.updated ?? conflict.detected)
        return .edited(base: conflict.base ?? empty, mine: mine, theirs: theirs)
    }

    /// Turns the deletion dialog built for an article deleted here and changed on the server into
    /// the question that fits it: Delete Anyway (this device's deletion goes over the server's
    /// edit) or Keep Their Version (the article comes back with the server's text, the default).
    static func askDeleteAnywayOrKeepTheirs(_ dialog: ConflictDialog, _ shown: ConflictDialog.Conflict) {
        guard case let .deleted(theirs, _, deleted) = shown else { return }
        let message = dialog.window.pointer(as: AdwMessageDialog.self)
        dialog.window.setProperty("heading", "Article Changed Elsewhere")
        dialog.window.setProperty(
            "body",
            "“\(ConflictDialog.displayTitle(theirs.content.title))” was deleted on this device "
                + "\(VersionTime.phrase(for: deleted)), but it was changed on the server "
                + "\(VersionTime.phrase(for: theirs.time)). Delete it anyway, or keep the server's version shown below?")
        adw_message_dialog_set_response_label(message, "delete", "_Delete Anyway")
        adw_message_dialog_set_response_label(message, "restore", "_Keep Their Version")
    }

    /// What the deletion dialog's answers mean for an article deleted here and changed on the
    /// server: "delete" keeps this device's deletion, "restore" brings back the server's version.
    static func deletedHereResolution(_ answer: ConflictResolution) -> ConflictResolution {
        switch answer {
        case .acceptDelete: .keepMine
        case .restoreMine: .keepTheirs
        default: answer
        }
    }

    private func show(count: Int) {
        self.count = count
        var text = count == 1 ? "1 article has conflicting changes" : "\(count) articles have conflicting changes"
        if let failure { text += " — \(failure)" }
        gtk_label_set_label(label.opaquePointer, text)
        gtk_revealer_set_reveal_child(widget.opaquePointer, count > 0 || failure != nil ? 1 : 0)
    }
}
