import Foundation
import GtkKit
import Library
import Platform

/// The dialog in which the writer resolves one conflicted article, returning the decision as a
/// ``ConflictResolution``. Applying it to the store is the caller's job.
///
/// An edit conflict shows this device's version and the server's side by side with their changes
/// highlighted (the base on request), a choice per conflicting change, and an editable merged
/// result; its actions are Keep Mine, Keep Theirs, Keep Both, Save Merged and Decide Later. An
/// article changed here and deleted elsewhere asks Restore Mine, Accept Delete or Decide Later; one
/// deleted here and changed elsewhere asks Delete Anyway, Keep Their Version or Decide Later.
/// When Keep Theirs keeps this device's text as a copy (``ConflictSides/keepTheirsKeepsCopy``), the
/// dialog says so. Closing the dialog any other way (Escape, the window manager) decides later.
///
/// ```swift
/// let dialog = try ConflictDialog(conflict: .edited(base: base, mine: mine, theirs: theirs), over: window)
/// dialog.present()
/// let resolution = await dialog.resolution()
/// ```
///
/// Once presented, the dialog keeps itself alive until the writer decides.
@MainActor
public final class ConflictDialog {
    /// One side's version of the article, labelled with where and when it was made.
    public struct Version: Sendable, Hashable {
        /// The article's content on that side.
        public var content: ArticleContent
        /// Where it was edited, as the column over it says: "This device" for this device's
        /// version, the server's or the other device's name ("Server", "Laptop") for theirs.
        public var device: String
        /// When it was last changed.
        public var time: Date

        /// A labelled version.
        public init(content: ArticleContent, device: String, time: Date) {
            self.content = content
            self.device = device
            self.time = time
        }
    }

    /// What conflicts.
    public enum Conflict: Sendable, Hashable {
        /// Both sides changed the article since `base`, the version they last agreed on.
        case edited(base: ArticleContent, mine: Version, theirs: Version)
        /// This device changed the article (`mine`) and the server deleted it: on `device`, at `time`.
        case deleted(mine: Version, device: String, time: Date)
        /// This device deleted the article (moved it to the trash at `time`) and the server changed
        /// it (`theirs`): delete it anyway, or keep their version.
        case deletedHere(theirs: Version, time: Date)
    }

    /// What the writer decided: a resolution to carry out now, or to come back to the conflict later.
    public enum Decision: Sendable, Hashable {
        case resolve(ConflictResolution)
        case decideLater
    }

    /// The dialog's window: an `AdwWindow` for an edit conflict, an `AdwMessageDialog` for an
    /// edit against a deletion.
    public let window: Window
    /// Called once with the writer's decision, before the window closes.
    public var decided: (@MainActor (Decision) -> Void)?
    /// The decision, once made.
    public private(set) var decision: Decision?

    /// The edit conflict's side-by-side view; nil for edit versus delete.
    let editView: EditConflictView?
    private var waiting: [CheckedContinuation<Decision, Never>] = []
    /// The dialog itself while it is shown: the window's handlers hold it weakly.
    private var retainedUntilDecided: ConflictDialog?

    /// Builds the dialog for `conflict` as a modal dialog of `parent`. Call ``present()`` to show it.
    /// `copyOnKeepTheirs` is the title under which Keep Theirs keeps this device's text, when it
    /// keeps it (nil: Keep Theirs drops it, as the writer sees).
    public init(conflict: Conflict, over parent: Window?, copyOnKeepTheirs: String? = nil) throws {
        SourceBuffer.registerTypes()
        QuireResources.register()
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "conflicts/conflicts.css")
        // What each response of a deletion dialog decides.
        var responses: [String: ConflictResolution] = [:]
        switch conflict {
        case let .edited(base, mine, theirs):
            let view = try EditConflictView(base: base, mine: mine, theirs: theirs, copyOnKeepTheirs: copyOnKeepTheirs)
            editView = view
            window = view.window
        case let .deleted(mine, device, time):
            editView = nil
            window = try Self.deletedDialog(mine: mine, device: device, time: time)
            responses = ["restore": .restoreMine, "delete": .acceptDelete]
        case let .deletedHere(theirs, time):
            editView = nil
            window = try Self.deletedHereDialog(theirs: theirs, deleted: time, copyOnKeepTheirs: copyOnKeepTheirs)
            responses = ["restore": .keepTheirs, "delete": .keepMine]
        }
        window.transientFor = parent
        if let editView {
            editView.finish = { [weak self] decision in self?.finish(decision) }
            window.connect(.closeRequest) { [weak self] in
                // The window manager's close button: nothing decided.
                self?.finish(.decideLater, closing: false)
                return false
            }
        } else {
            // Every way of closing a message dialog ends in a response (the close response,
            // "later", when no button was pressed), and the dialog closes itself.
            window.connect(.response) { [weak self] response in
                let decision: Decision = responses[response].map(Decision.resolve) ?? .decideLater
                self?.finish(decision, closing: false)
            }
        }
        // A window destroyed without a decision (the application quitting) decides later. Not at
        // once: a message dialog is destroyed just before it emits the response that decides.
        window.onDestroyed { [weak self] in
            guard let self else { return }
            Task { @MainActor in self.finish(.decideLater, closing: false) }
        }
    }

    /// Shows the dialog. It stays alive until the writer decides, even if nothing else holds it.
    public func present() {
        retainedUntilDecided = self
        window.present()
    }

    /// Waits for the writer's decision.
    public func awaitDecision() async -> Decision {
        if let decision { return decision }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// Records the decision once, tells whoever waits, and closes the window.
    func finish(_ decision: Decision, closing: Bool = true) {
        guard self.decision == nil else { return }
        self.decision = decision
        decided?(decision)
        for continuation in waiting { continuation.resume(returning: decision) }
        waiting.removeAll()
        if closing { window.destroy() }
        // Last: this may release the dialog.
        retainedUntilDecided = nil
    }

    // MARK: Edit versus delete

    /// Changed here, deleted on `device`: Restore Mine or Accept Delete, this device's text shown.
    private static func deletedDialog(mine: Version, device: String, time: Date) throws -> MessageDialog {
        let title = displayTitle(mine.content.title)
        return try messageDialog(
            showing: mine,
            // Translators: “Title” was deleted on the server today at 14:03, but it was changed on this device yesterday at 09:12.
            body: String(cFormat: gettext("“%1$s” was deleted on %2$s %3$s, but it was changed on this device %4$s. Restore your version on the server, or accept the deletion and move it to the Trash?"), title, device, VersionTime.phrase(for: time), VersionTime.phrase(for: mine.time)))
    }

    /// Deleted here, changed on the server: Delete Anyway (this device's deletion goes over the
    /// server's edit; the article stays in the Trash) or Keep Their Version (the article comes back
    /// with the server's text, shown), the default.
    private static func deletedHereDialog(theirs: Version, deleted: Date, copyOnKeepTheirs: String?) throws -> MessageDialog {
        let title = displayTitle(theirs.content.title)
        var body = String(cFormat: gettext("“%1$s” was deleted on this device %2$s, but it was changed on the server %3$s. Delete it anyway, or keep the server's version shown below?"), title, VersionTime.phrase(for: deleted), VersionTime.phrase(for: theirs.time))
        if let copyOnKeepTheirs {
            body += " " + String(cFormat: gettext("Keeping it also keeps this device's text in the Trash as “%s”."), copyOnKeepTheirs)
        }
        let dialog = try messageDialog(showing: theirs, body: body)
        dialog.heading = gettext("Article Changed Elsewhere")
        dialog.setLabel(gettext("_Delete Anyway"), ofResponse: "delete")
        dialog.setLabel(gettext("_Keep Their Version"), ofResponse: "restore")
        return dialog
    }

    /// The message dialog of an edit against a deletion (`deleted-article-dialog.ui`), showing one
    /// side's version under `body`.
    private static func messageDialog(showing version: Version, body: String) throws -> MessageDialog {
        let builder = try Builder(resource: Quire.resourcePath + "conflicts/deleted-article-dialog.ui")
        let dialog = try builder.object("deleted_dialog", as: MessageDialog.self)
        dialog.body = body
        try builder.object("deleted_title", as: Label.self).text = displayTitle(version.content.title)
        let buffer = try builder.object("deleted_buffer", as: SourceBuffer.self)
        buffer.highlightMarkdown()
        buffer.followStyle(storingIn: dialogConnections(of: dialog))
        buffer.load(version.content.body)
        return dialog
    }

    /// How the dialog shows an article's title: "Untitled" when it has nothing visible.
    static func displayTitle(_ title: String) -> String {
        title.allSatisfy(\.isWhitespace) ? gettext("Untitled") : title
    }

    /// Connections that live as long as `dialog` is open.
    private static func dialogConnections(of dialog: Window) -> SignalConnections {
        let connections = SignalConnections()
        dialog.keepAlive(connections)
        return connections
    }
}
