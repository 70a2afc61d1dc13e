import Foundation
import GtkKit
import Platform
import SyncClient

/// The header bar's sync status: synced, syncing, offline, "N changes waiting", an error or
/// "Sync off", as a word and an icon; its popover says what is wrong in the writer's words (which
/// changes the server refused, and why), with the technical details behind an expander, when the
/// library last caught up, and Sync now.
///
/// ```swift
/// let status = try SyncStatusButton(session: session)
/// statusSlot.append(status.widget)
/// ```
///
/// Its action `sync.sync-now` (the popover's button) calls ``SyncSession/syncNow()``; the main
/// window binds Ctrl+R to its own action that does the same.
@MainActor
public final class SyncStatusButton {
    /// The button to place in a header bar.
    public let widget: MenuButton
    /// The `sync` actions: `sync-now`.
    public let actions: ActionGroup
    let label: Label
    let headlineLabel: Label
    let detailLabel: Label
    let detailsExpander: Expander
    let detailsLabel: Label
    let lastSyncedLabel: Label
    private let iconStack: Stack
    private let icon: Image
    private let spinner: Spinner
    private let session: SyncSession
    private var observation: UUID?

    /// Builds the button and shows the session's status from now on.
    public init(session: SyncSession) throws {
        QuireResources.register()
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "sync/sync.css")
        let builder = try Builder(resource: Quire.resourcePath + "sync/sync-status-button.ui")
        widget = try builder.object("status_button")
        label = try builder.object("status_label")
        headlineLabel = try builder.object("headline_label")
        detailLabel = try builder.object("detail_label")
        detailsExpander = try builder.object("details_expander")
        detailsLabel = try builder.object("details_label")
        lastSyncedLabel = try builder.object("last_synced_label")
        iconStack = try builder.object("status_icon_stack")
        icon = try builder.object("status_icon")
        spinner = try builder.object("status_spinner")
        self.session = session
        actions = ActionGroup(prefix: "sync", on: widget)
        actions.addAction("sync-now") { [weak self] in self?.session.syncNow() }
        observation = session.observe { [weak self] status in self?.show(status) }
        widget.connect(.destroy) { [weak self] in
            guard let self, let observation = self.observation else { return }
            self.session.stopObserving(observation)
            self.observation = nil
        }
    }

    /// What the button says for a status: its word, icon name (nil: the spinner), and the
    /// popover's heading, its sentences for the writer, and the technical details.
    struct Presentation: Equatable {
        var word: String
        var iconName: String?
        var heading: String
        var detail: String
        var details: String = ""
        var isError: Bool
    }

    static func presentation(of status: SyncStatus) -> Presentation {
        var presentation = headlinePresentation(of: status)
        if status.serverKeepsNoAttachments && !presentation.isError {
            let note = gettext("This server is older than Quire and keeps no images or files: they stay in this library only.")
            presentation.detail = presentation.detail.isEmpty ? note : presentation.detail + "\n" + note
        }
        return presentation
    }

    private static func headlinePresentation(of status: SyncStatus) -> Presentation {
        switch status.headline {
        case .synced:
            return Presentation(word: gettext("Synced"), iconName: "emblem-ok-symbolic", heading: gettext("Everything is synced"),
                                detail: gettext("This library has the server’s changes and the server has this library’s."), isError: false)
        case .syncing:
            return Presentation(word: gettext("Syncing…"), iconName: nil, heading: gettext("Syncing"),
                                detail: waitingPhrase(status.waitingChanges) ?? gettext("Fetching the server’s changes."), isError: false)
        case .offline:
            return Presentation(
                word: gettext("Offline"), iconName: "network-offline-symbolic", heading: gettext("The server cannot be reached"),
                detail: waitingPhrase(status.waitingChanges).map { $0 + " " + gettext("Your edits are kept and sent when the server is back.") } ?? "",
                details: status.lastProblem?.detail ?? "", isError: false)
        case let .waiting(count):
            return Presentation(word: changesPhrase(count), iconName: "document-send-symbolic",
                                heading: changesPhrase(count), detail: waitingPhrase(count) ?? "", isError: false)
        case let .error(summary):
            let lines = status.failures.map { failure in
                String(cFormat: gettext("“%1$s”: %2$s"), failure.articleTitle ?? gettext("An article"), ErrorExplanation(failure.rejection).sentence)
            }
            var details = status.failures.map { "\($0.id): \($0.rejection)" }
            if let problem = status.lastProblem, !problem.isNetwork { details.append(problem.detail) }
            return Presentation(word: gettext("Sync Error"), iconName: "dialog-warning-symbolic", heading: summary,
                                detail: lines.joined(separator: "\n"), details: details.joined(separator: "\n"), isError: true)
        case .off:
            return Presentation(word: gettext("Sync Off"), iconName: "network-offline-symbolic", heading: gettext("Sync is off"),
                                detail: gettext("Sign in to a Quire server in Preferences to sync this library."), isError: false)
        }
    }

    /// Shows `status`.
    func show(_ status: SyncStatus) {
        let presentation = Self.presentation(of: status)
        label.text = presentation.word
        headlineLabel.text = presentation.heading
        detailLabel.text = presentation.detail
        detailLabel.isVisible = !presentation.detail.isEmpty
        detailsLabel.text = presentation.details
        detailsExpander.isVisible = !presentation.details.isEmpty
        lastSyncedLabel.text = status.lastSynced.map { String(cFormat: gettext("Last synced %s"), VersionTime.phrase(for: $0)) } ?? gettext("Not synced yet")
        if let iconName = presentation.iconName {
            icon.iconName = iconName
            spinner.isSpinning = false
            iconStack.visibleChildName = "icon"
        } else {
            spinner.isSpinning = true
            iconStack.visibleChildName = "spinner"
        }
        widget.setStyleClass("error", on: presentation.isError)
        actions.action(named: "sync-now")?.isEnabled = status.activity != .stopped
        widget.tooltipText = presentation.heading
        // What a screen reader says for the button: the status, as the tooltip says it.
        widget.setAccessibleLabel(presentation.heading)
    }

    private static func changesPhrase(_ count: Int) -> String {
        String(cFormat: ngettext("%d change waiting", "%d changes waiting", count), count)
    }

    private static func waitingPhrase(_ count: Int) -> String? {
        count == 0 ? nil : String(cFormat: ngettext("%d change waits to be sent.", "%d changes wait to be sent.", count), count)
    }
}
