import Foundation
import GtkKit
import Library
import Platform
import Transfer

/// The Export dialog: which articles (the selection, a folder, drafts, unsynced edits or the whole
/// library), which format (Markdown, HTML, PDF or a JSON archive, one file per article or one
/// combined document; HTML with its images inside the pages or beside them), then a destination
/// from the file chooser. Before the writer exports, the dialog lists the attachments the picked
/// articles refer to that it cannot have (not in the library, and not on the server when asked,
/// which downloads nothing: ``UnavailableAttachment``, ``ExportAttachments``). The export first
/// downloads what the server has of the attachments the library lacks, then writes, off the main
/// thread with a progress bar and Cancel for both; an existing file is replaced only after the
/// writer agrees; when it is done a toast on the main window offers "Open Folder" and the dialog
/// closes, or stays to name the attachments the export had to go without. A failure keeps the
/// dialog open and says why in an ``ErrorDialog`` over it.
///
/// ```swift
/// try await ExportDialog.present(
///     library: library, over: window, toastOverlay: toastOverlay, selection: selectedIDs)
/// ```
///
/// The engine (``ExportJob``) writes atomically: a cancelled or failed export leaves no files.
/// Once presented, the dialog keeps itself alive until its window closes.
@MainActor
public final class ExportDialog {
    /// How an export through the dialog ended.
    public enum Outcome: Sendable, Hashable {
        /// The files were written (without the attachments ``leftOut`` names).
        case exported(ExportResult)
        /// The writer cancelled while it ran; nothing was written.
        case cancelled
        /// It failed, for the reason this sentence gives (``ErrorExplanation``); nothing was written.
        case failed(String)
    }

    /// The dialog's `AdwWindow`.
    public let window: Window
    /// How the last export ended, if one ran.
    public private(set) var outcome: Outcome?
    /// Called after each export ends.
    public var finished: (@MainActor (Outcome) -> Void)?

    let library: Library
    let toastOverlay: ToastOverlay
    /// Shows why an export failed, over the dialog.
    let errors: ErrorPresenter
    let fileChooser: FileChooser
    let openFolder: @MainActor (URL) throws -> Void
    /// The writer's choices so far.
    private(set) var choices: ExportChoices
    /// The export running now.
    private(set) var running: Task<Void, Never>?
    /// The replace confirmation, while it asks.
    private(set) var replaceConfirmation: MessageDialog?
    /// The toast the last successful export left.
    private(set) var toast: TransferToast?

    let actions: ActionGroup
    let pages: Stack
    let scopeRow: ComboRow
    let folderRow: ComboRow
    let formatRow: ComboRow
    let combinedRow: ActionRow
    let combinedSwitch: Switch
    let metadataRow: ActionRow
    let metadataSwitch: Switch
    let embedRow: ActionRow
    let embedSwitch: Switch
    /// Names the attachments the picked articles refer to that the export cannot have.
    let attachmentsNote: Label
    /// Finds those attachments for the picked articles, and fetches the others when the writer
    /// exports (through the sync worker when signed in).
    let attachments: ExportAttachments
    /// The attachments the picked articles refer to that the export cannot have, once checked.
    private(set) var unavailable: [UnavailableAttachment]?
    /// The attachments the last export went without: the library lacked them and could not get
    /// them when it ran (the result's ``ExportResult/unavailableAttachments`` names them too).
    private(set) var leftOut: [UnavailableAttachment] = []
    /// The scope ``unavailable`` is for, or being checked for.
    private var checkedScope: ExportScope?
    let destinationNote: Label
    let messageLabel: Label
    let progressBar: ProgressBar
    let progressLabel: Label
    private let connections = SignalConnections()

    /// Reads the library's folders, then shows the dialog over `parent`. The toast goes on
    /// `toastOverlay` (an `AdwToastOverlay`); `selection` is the articles selected in the main
    /// window, offered as the first scope when not empty.
    @discardableResult
    public static func present(
        library: Library, over parent: Window, toastOverlay: ToastOverlay, selection: [UUID] = [], sync: SyncSession? = nil
    ) async throws -> ExportDialog {
        let folders = try await library.folders().map(\.name)
        let dialog = try ExportDialog(
            library: library, over: parent, toastOverlay: toastOverlay, selection: selection, folders: folders,
            attachments: sync.map(ExportAttachments.sync))
        dialog.present()
        return dialog
    }

    /// Builds the dialog for a library with `folders`; call ``present()`` to show it. The file
    /// chooser and the way "Open Folder" opens a folder can be replaced (tests cannot drive either);
    /// `attachments` may ask the sync worker (by default only the library is asked).
    init(
        library: Library, over parent: Window?, toastOverlay: ToastOverlay, selection: [UUID], folders: [String],
        fileChooser: FileChooser = .native, openFolder: @escaping @MainActor (URL) throws -> Void = TransferToast.launchFileManager,
        attachments: ExportAttachments? = nil
    ) throws {
        QuireResources.register()
        self.library = library
        self.toastOverlay = toastOverlay
        self.fileChooser = fileChooser
        self.openFolder = openFolder
        choices = ExportChoices(selection: selection, folders: folders)
        let builder = try Builder(resource: Quire.resourcePath + "transfer/export-dialog.ui")
        window = try builder.object("export_window")
        pages = try builder.object("pages")
        scopeRow = try builder.object("scope_row")
        folderRow = try builder.object("folder_row")
        formatRow = try builder.object("format_row")
        combinedRow = try builder.object("combined_row")
        combinedSwitch = try builder.object("combined_switch")
        metadataRow = try builder.object("metadata_row")
        metadataSwitch = try builder.object("metadata_switch")
        embedRow = try builder.object("embed_row")
        embedSwitch = try builder.object("embed_switch")
        attachmentsNote = try builder.object("attachments_note")
        self.attachments = attachments ?? .library(library)
        destinationNote = try builder.object("destination_note")
        messageLabel = try builder.object("message_label")
        progressBar = try builder.object("progress_bar")
        progressLabel = try builder.object("progress_label")
        actions = ActionGroup(prefix: "export", on: window)
        window.transientFor = parent
        errors = ErrorPresenter(libraryPath: library.url.path, over: window)

        scopeRow.setItems(choices.scopes.map(\.label), selected: choices.scopes.firstIndex(of: choices.scope) ?? 0)
        folderRow.setItems(folders)
        formatRow.setItems(ExportChoices.FormatChoice.allCases.map(\.label))
        for row in [scopeRow, folderRow, formatRow] {
            row.connect(.notify("selected")) { [weak self] _ in self?.readChoices() }.store(in: connections)
        }
        for toggle in [combinedSwitch, metadataSwitch, embedSwitch] {
            toggle.connect(.notify("active")) { [weak self] _ in self?.readChoices() }.store(in: connections)
        }
        actions.addAction("export", accelerators: ["<Control>Return"]) { [weak self] in self?.chooseDestination() }
        // Closing while the export runs cancels it; the engine removes what it wrote.
        actions.addCancelAndClose(for: window) { [weak self] in self?.running?.cancel() }
        readChoices()
        window.keepAlive(self)
    }

    /// Shows the dialog.
    public func present() {
        window.present()
    }

    // MARK: Choosing

    /// Takes the choices from the widgets and shows only the rows that apply.
    private func readChoices() {
        choices.scope = choices.scopes[min(scopeRow.selected, choices.scopes.count - 1)]
        choices.folder = choices.folders.indices.contains(folderRow.selected) ? choices.folders[folderRow.selected] : nil
        choices.format = ExportChoices.FormatChoice(rawValue: formatRow.selected) ?? .markdown
        choices.isCombined = combinedSwitch.isActive
        choices.includesSyncMetadata = metadataSwitch.isActive
        choices.embedsAttachments = embedSwitch.isActive
        folderRow.isVisible = choices.scope == .folder
        combinedRow.isVisible = choices.offersCombined
        metadataRow.isVisible = choices.offersSyncMetadata
        embedRow.isVisible = choices.offersEmbedding
        checkAttachments()
        destinationNote.text = choices.writesFolder
            ? String(cFormat: gettext("Next, choose a folder: each article becomes one .%s file in it."), choices.format.fileExtension)
            : String(cFormat: gettext("Next, choose the name and place of the .%s file."), choices.format.fileExtension)
        actions.action(named: "export")?.isEnabled = running == nil && choices.exportScope != nil
    }

    /// Changes the choices as the writer would, through the widgets (for tests).
    func choose(scope: ExportChoices.ScopeChoice? = nil, format: ExportChoices.FormatChoice? = nil,
                combined: Bool? = nil, syncMetadata: Bool? = nil, embedded: Bool? = nil, folder: String? = nil) {
        if let scope, let index = choices.scopes.firstIndex(of: scope) { scopeRow.selected = index }
        if let folder, let index = choices.folders.firstIndex(of: folder) { folderRow.selected = index }
        if let format { formatRow.selected = format.rawValue }
        if let combined { combinedSwitch.isActive = combined }
        if let syncMetadata { metadataSwitch.isActive = syncMetadata }
        if let embedded { embedSwitch.isActive = embedded }
    }

    /// Finds, once per picked scope and off the main thread, the attachments its articles refer
    /// to that the export cannot have (the server is asked, nothing is downloaded), and names them.
    private func checkAttachments() {
        guard let scope = choices.exportScope, scope != checkedScope else { return }
        checkedScope = scope
        unavailable = nil
        attachmentsNote.isVisible = false
        let library = self.library
        let find = attachments.check
        Task { [weak self] in
            var found: [UnavailableAttachment] = []
            var failure: String?
            do {
                found = try await find(try await library.exportSource(for: scope).ids)
            } catch {
                // Not knowing is said, not shown as "nothing missing"; the export still runs.
                failure = String(cFormat: gettext("Could not check which attachments these articles lack. %s"),
                                 ErrorExplanation(error, libraryPath: library.url.path).sentence)
            }
            guard let self, self.checkedScope == scope else { return }
            self.unavailable = found
            self.attachmentsNote.text = failure ?? Self.note(found)
            self.attachmentsNote.isVisible = failure != nil || !found.isEmpty
        }
    }

    /// The sentence naming `unavailable`, at most eight by name: before the export (what it
    /// cannot have now), or after it (`exported`: what it went without).
    static func note(_ unavailable: [UnavailableAttachment], exported: Bool = false) -> String {
        var lines = [exported
            ? String(cFormat: ngettext(
                "%d attachment of these articles could not be had; the articles were exported without it:",
                "%d attachments of these articles could not be had; the articles were exported without them:",
                unavailable.count), unavailable.count)
            : String(cFormat: ngettext(
                "%d attachment of these articles cannot be exported now; the export goes on without it:",
                "%d attachments of these articles cannot be exported now; the export goes on without them:",
                unavailable.count), unavailable.count)]
        lines += unavailable.prefix(8).map { String(cFormat: gettext("• “%1$s”: %2$s"), $0.fileName, $0.reason) }
        if unavailable.count > 8 {
            lines.append(String(cFormat: ngettext("and %d more", "and %d more", unavailable.count - 8), unavailable.count - 8))
        }
        return lines.joined(separator: "\n")
    }

    /// Asks the file chooser for the destination, then exports there.
    private func chooseDestination() {
        guard running == nil, choices.exportScope != nil else { return }
        let request = choices.writesFolder
            ? FileRequest(title: gettext("Export to Folder"), acceptLabel: gettext("_Export"), kind: .folder)
            : FileRequest(title: gettext("Export As"), acceptLabel: gettext("_Export"), kind: .saveFile(suggestedName: choices.suggestedName))
        actions.action(named: "export")?.isEnabled = false
        Task { [weak self, fileChooser, window] in
            let chosen = await fileChooser.choose(request, window)
            guard let self else { return }
            guard let destination = chosen.first else {
                self.readChoices()
                return
            }
            self.export(to: destination, overwriting: false)
        }
    }

    // MARK: Exporting

    /// Exports the current choices to `destination`, replacing existing files only when
    /// `overwriting`: first downloads what the server has of the attachments the library lacks
    /// (``ExportAttachments/fetch``), then writes.
    func export(to destination: URL, overwriting: Bool) {
        guard running == nil, let scope = choices.exportScope else { return }
        let choices = self.choices
        let library = self.library
        let fetchAttachments = attachments.fetch
        messageLabel.showMessage(nil)
        progressBar.fraction = 0
        progressLabel.text = gettext("Preparing…")
        pages.visibleChildName = "progress"
        actions.action(named: "export")?.isEnabled = false
        let relay = ProgressRelay<ExportProgress> { [weak self] progress in self?.show(progress) }
        running = Task { [weak self] in
            let result: Result<(ExportResult, [UnavailableAttachment]), any Error>
            do {
                let ids = try await library.exportSource(for: scope).ids
                let leftOut = try await fetchAttachments(ids) { done, total in self?.showDownload(done, of: total) }
                let format: ExportFormat
                if let documentFormat = choices.documentFormat {
                    format = documentFormat
                } else {
                    format = .jsonArchive(try await library.archiveOptions(includingSyncMetadata: choices.includesSyncMetadata))
                }
                let job = ExportJob(format: format, destination: destination, overwritesExisting: overwriting, embedsAttachments: choices.embeds)
                result = .success((try await library.export(scope, with: job) { relay.report($0) }, leftOut))
            } catch {
                result = .failure(error)
            }
            self?.finish(result, destination: destination)
        }
    }

    private func showDownload(_ done: Int, of total: Int) {
        guard running != nil, total > 0 else { return }
        progressBar.fraction = Double(done) / Double(total)
        progressLabel.text = String(cFormat: ngettext(
            "Downloading attachments: %1$d of %2$d", "Downloading attachments: %1$d of %2$d", total), done, total)
    }

    private func show(_ progress: ExportProgress) {
        guard running != nil else { return }
        progressBar.fraction = progress.fractionCompleted
        progressLabel.text = String(cFormat: ngettext("%1$d of %2$d step", "%1$d of %2$d steps", progress.total), progress.completed, progress.total)
    }

    private func finish(_ result: Result<(ExportResult, [UnavailableAttachment]), any Error>, destination: URL) {
        running = nil
        pages.visibleChildName = "options"
        readChoices()
        let outcome: Outcome
        switch result {
        case .success(let (exported, leftOut)):
            outcome = .exported(exported)
            self.leftOut = leftOut
            let toast = TransferToast(
                title: String(cFormat: ngettext("Exported %1$d article to “%2$s”", "Exported %1$d articles to “%2$s”", exported.articleCount), exported.articleCount, exported.folder.lastPathComponent),
                folder: exported.folder, openFolder: openFolder)
            toast.show(on: toastOverlay)
            self.toast = toast
            if !leftOut.isEmpty {
                // The dialog stays to name them: a toast is gone before a list is read.
                unavailable = leftOut
                attachmentsNote.text = Self.note(leftOut, exported: true)
                attachmentsNote.isVisible = true
                messageLabel.showMessage(String(cFormat: ngettext(
                    "Exported %1$d article to “%2$s”, without the attachments named above.",
                    "Exported %1$d articles to “%2$s”, without the attachments named above.", exported.articleCount),
                    exported.articleCount, exported.folder.lastPathComponent))
            }
        case .failure(is CancellationError):
            outcome = .cancelled
            messageLabel.showMessage(gettext("Export cancelled. No files were written."))
        case .failure(let error):
            if case ExportError.destinationExists(let path)? = error as? ExportError, window.isOpen {
                askToReplace(path, destination: destination)
                return
            }
            outcome = .failed(errors.explain(error).sentence)
            messageLabel.showMessage(gettext("Could not export. No files were written."), isError: true)
            errors.present(gettext("Could not export"), error)
        }
        self.outcome = outcome
        finished?(outcome)
        if case .exported = outcome, leftOut.isEmpty { window.destroy() }
    }

    // MARK: Replacing

    /// Asks whether the existing `path` (and, for a folder, any other files of the same names) may
    /// be replaced; exports again, replacing, only if the writer agrees.
    private func askToReplace(_ path: String, destination: URL) {
        let existing = URL(fileURLWithPath: path)
        let heading = choices.writesFolder ? gettext("Replace Existing Files?") : String(cFormat: gettext("Replace “%s”?"), existing.lastPathComponent)
        let body = choices.writesFolder
            ? String(cFormat: gettext("“%1$s” already exists in “%2$s”, and other exported files may too. Replacing overwrites them with the exported articles."), existing.lastPathComponent, existing.deletingLastPathComponent().lastPathComponent)
            : String(cFormat: gettext("A file with this name already exists in “%s”. Replacing overwrites its contents."), existing.deletingLastPathComponent().lastPathComponent)
        let dialog = MessageDialog(heading: heading, body: body, over: window)
        dialog.addResponse("cancel", label: gettext("_Cancel"))
        dialog.addResponse("replace", label: gettext("_Replace"), appearance: .destructive)
        dialog.defaultResponse = "cancel"
        dialog.closeResponse = "cancel"
        dialog.connect(.response) { [weak self] response in
            guard let self else { return }
            self.replaceConfirmation = nil
            if response == "replace" {
                self.export(to: destination, overwriting: true)
            } else {
                self.messageLabel.showMessage(String(cFormat: gettext("Nothing was exported: “%s” already exists."), existing.lastPathComponent))
            }
        }
        replaceConfirmation = dialog
        dialog.present()
    }
}
