import Foundation
import GtkKit
import Library
import Platform
import Transfer

/// The Import dialog: the writer chooses Markdown files, folders of them or a JSON archive; the
/// dialog reads them off the main thread and previews what will be created or changed and which
/// files failed (``ImportPlan``), asks once what to do with articles the library already has
/// (skip, replace, import as copies) when there are any, then imports with a progress bar and
/// Cancel, and leaves a toast with the count on the main window.
///
/// ```swift
/// ImportDialog.present(library: library, over: window, toastOverlay: toastOverlay)
/// ```
///
/// Imported articles are ordinary local edits, saved a batch at a time: cancelling keeps the
/// batches already saved, and the toast says how many. A failure keeps the dialog open and says
/// why in an ``ErrorDialog`` over it. Once presented, the dialog keeps itself
/// alive until its window closes.
@MainActor
public final class ImportDialog {
    /// How an import through the dialog ended.
    public enum Outcome: Sendable, Hashable {
        /// `articles` were saved; `failures` files or articles could not be read.
        case imported(articles: Int, failures: Int)
        /// The writer cancelled after `articles` were saved.
        case cancelled(articles: Int)
        /// Reading or saving failed, for the reason this sentence gives (``ErrorExplanation``).
        case failed(String)
    }

    /// The dialog's `AdwWindow`.
    public let window: Window
    /// How the import ended, once it has.
    public private(set) var outcome: Outcome?
    /// Called when the import ends.
    public var finished: (@MainActor (Outcome) -> Void)?

    let library: Library
    let toastOverlay: ToastOverlay
    /// Shows why reading or importing failed, over the dialog.
    let errors: ErrorPresenter
    let fileChooser: FileChooser
    /// What the chosen files hold, once read.
    private(set) var scan: ImportScan?
    private var contents: LibraryContents?
    /// What importing would do, with the current choice for existing articles.
    private(set) var plan: ImportPlan?
    /// The preview of ``plan``.
    private(set) var preview: ImportPreview?
    /// The reading or importing running now.
    private(set) var running: Task<Void, Never>?
    /// The toast the import left.
    private(set) var toast: TransferToast?
    /// The preview's rows, articles then failures, as shown.
    private(set) var articleRows: [ActionRow] = []
    private(set) var failureRows: [ActionRow] = []

    let actions: ActionGroup
    let pages: Stack
    let messageLabel: Label
    let existingGroup: PreferencesGroup
    let existingRow: ComboRow
    let articlesGroup: PreferencesGroup
    let articlesList: ListBox
    let failuresGroup: PreferencesGroup
    let failuresList: ListBox
    let progressTitle: Label
    let progressBar: ProgressBar
    let progressLabel: Label
    private let connections = SignalConnections()

    /// Shows the dialog over `parent`; the toast goes on `toastOverlay` (an `AdwToastOverlay`).
    @discardableResult
    public static func present(library: Library, over parent: Window, toastOverlay: ToastOverlay) throws -> ImportDialog {
        let dialog = try ImportDialog(library: library, over: parent, toastOverlay: toastOverlay)
        dialog.present()
        return dialog
    }

    /// Builds the dialog; call ``present()`` to show it. The file chooser can be replaced (tests
    /// cannot drive the native one).
    init(library: Library, over parent: Window?, toastOverlay: ToastOverlay, fileChooser: FileChooser = .native) throws {
        QuireResources.register()
        self.library = library
        self.toastOverlay = toastOverlay
        self.fileChooser = fileChooser
        let builder = try Builder(resource: Quire.resourcePath + "transfer/import-dialog.ui")
        window = try builder.object("import_window")
        pages = try builder.object("pages")
        messageLabel = try builder.object("message_label")
        existingGroup = try builder.object("existing_group")
        existingRow = try builder.object("existing_row")
        articlesGroup = try builder.object("articles_group")
        articlesList = try builder.object("articles_list")
        failuresGroup = try builder.object("failures_group")
        failuresList = try builder.object("failures_list")
        progressTitle = try builder.object("progress_title")
        progressBar = try builder.object("progress_bar")
        progressLabel = try builder.object("progress_label")
        actions = ActionGroup(prefix: "import", on: window)
        window.transientFor = parent
        errors = ErrorPresenter(libraryPath: library.url.path, over: window)

        for group in [existingGroup, articlesGroup, failuresGroup] { group.isVisible = false }
        existingRow.setItems(ExistingArticlePolicy.allCases.map(\.choiceLabel))
        existingRow.connect(.notify("selected")) { [weak self] _ in self?.replan() }.store(in: connections)
        actions.addAction("choose-files") { [weak self] in
            self?.choose(FileRequest(title: gettext("Import Files"), acceptLabel: gettext("_Open"), kind: .openFiles(fileExtensions: ["md", "markdown", "json"])))
        }
        actions.addAction("choose-folder") { [weak self] in
            self?.choose(FileRequest(title: gettext("Import Folder"), acceptLabel: gettext("_Open"), kind: .folder))
        }
        actions.addAction("import", accelerators: ["<Control>Return"]) { [weak self] in self?.importPlan() }
        actions.addCancelAndClose(for: window) { [weak self] in self?.running?.cancel() }
        updateActions()
        window.keepAlive(self)
    }

    /// Shows the dialog.
    public func present() {
        window.present()
    }

    private func updateActions() {
        let idle = running == nil
        actions.action(named: "import")?.isEnabled = idle && (plan.map { !$0.writes.isEmpty || !$0.foldersToCreate.isEmpty } ?? false)
        actions.action(named: "choose-files")?.isEnabled = idle
        actions.action(named: "choose-folder")?.isEnabled = idle
    }

    // MARK: Reading

    private func choose(_ request: FileRequest) {
        guard running == nil else { return }
        Task { [weak self, fileChooser, window] in
            let urls = await fileChooser.choose(request, window)
            guard let self, !urls.isEmpty else { return }
            self.read(urls)
        }
    }

    /// Reads `urls` (files and folders) and shows the preview of importing them.
    func read(_ urls: [URL]) {
        guard running == nil else { return }
        let library = self.library
        showProgress(title: gettext("Reading Files…"), detail: urls.count == 1 ? urls[0].lastPathComponent : String(cFormat: ngettext("%d file or folder", "%d files and folders", urls.count), urls.count))
        progressBar.isVisible = false
        running = Task { [weak self] in
            let result: Result<(ImportScan, LibraryContents), any Error>
            do {
                let scan = try await ImportScan.read(urls)
                result = .success((scan, try await library.importContents(for: scan)))
            } catch {
                result = .failure(error)
            }
            guard let self else { return }
            self.running = nil
            switch result {
            case .success(let (scan, contents)):
                self.scan = scan
                self.contents = contents
                self.replan()
                self.pages.visibleChildName = "preview"
            case .failure(is CancellationError):
                self.pages.visibleChildName = self.plan == nil ? "start" : "preview"
            case .failure(let error):
                self.fail(gettext("Could not read the files"), error, saved: 0)
            }
            self.updateActions()
        }
        updateActions()
    }

    /// The policy the writer picked for existing articles.
    var policy: ExistingArticlePolicy {
        get { ExistingArticlePolicy.allCases[min(existingRow.selected, ExistingArticlePolicy.allCases.count - 1)] }
        set { existingRow.selected = ExistingArticlePolicy.allCases.firstIndex(of: newValue) ?? 0 }
    }

    /// Plans the import with the current policy and shows the preview.
    private func replan() {
        guard let scan, let contents else { return }
        let plan = ImportPlan(scan: scan, library: contents, onExisting: policy)
        let preview = ImportPreview(plan)
        self.plan = plan
        self.preview = preview
        existingGroup.isVisible = preview.asksAboutExisting
        existingGroup.groupDescription = preview.existingCount == 1
            ? gettext("One imported article is already in the library, with other content.")
            : String(cFormat: ngettext("%d imported article is already in the library, with other content.", "%d imported articles are already in the library, with other content.", preview.existingCount), preview.existingCount)
        messageLabel.showMessage(preview.headline)
        for row in articleRows { articlesList.remove(row) }
        for row in failureRows { failuresList.remove(row) }
        articleRows = preview.lines.map(makeRow)
        if preview.moreLines > 0 {
            articleRows.append(makeRow(ImportPreview.Line(kind: .unchanged, title: String(cFormat: ngettext("And %d more", "And %d more", preview.moreLines), preview.moreLines), detail: "")))
        }
        failureRows = preview.failures.map(makeRow)
        for row in articleRows { articlesList.append(row) }
        for row in failureRows { failuresList.append(row) }
        articlesGroup.isVisible = !articleRows.isEmpty
        failuresGroup.isVisible = !failureRows.isEmpty
        updateActions()
    }

    private func makeRow(_ line: ImportPreview.Line) -> ActionRow {
        // Titles and reasons come from files: the row shows them as text, not Pango markup.
        let row = ActionRow(title: line.title, subtitle: line.detail)
        row.subtitleLines = 3
        let icon = Image(iconName: line.kind.iconName)
        row.addPrefix(icon)
        icon.setStyleClass("error", on: line.kind == .failure)
        return row
    }

    // MARK: Importing

    /// How many articles one save takes: progress and Cancel act between saves.
    static let batchSize = 200

    /// Saves the planned articles, a batch per save, with progress.
    func importPlan() {
        guard running == nil, let plan, !plan.writes.isEmpty || !plan.foldersToCreate.isEmpty else { return }
        let library = self.library
        let writes = plan.writes
        showProgress(title: gettext("Importing…"), detail: String(cFormat: ngettext("%1$d of %2$d article", "%1$d of %2$d articles", writes.count), 0, writes.count))
        progressBar.isVisible = true
        progressBar.fraction = 0
        let relay = ProgressRelay<Int> { [weak self] saved in
            guard let self, self.running != nil else { return }
            self.progressBar.fraction = writes.isEmpty ? 1 : Double(saved) / Double(writes.count)
            self.progressLabel.text = String(cFormat: ngettext("%1$d of %2$d article", "%1$d of %2$d articles", writes.count), saved, writes.count)
        }
        running = Task { [weak self] in
            var saved = 0
            let outcome: Outcome
            do {
                var part = plan
                var start = 0
                repeat {
                    try Task.checkCancellation()
                    part.items = Array(writes[start..<min(writes.count, start + Self.batchSize)])
                    try await library.apply(part)
                    // Folders, tags and dictionary words come with the first save.
                    part.foldersToCreate = []
                    part.tagsToCreate = []
                    part.personalWords = [:]
                    saved += part.items.count
                    relay.report(saved)
                    start += Self.batchSize
                } while start < writes.count
                outcome = .imported(articles: saved, failures: plan.failures.count)
            } catch is CancellationError {
                outcome = .cancelled(articles: saved)
            } catch {
                guard let self else { return }
                self.running = nil
                self.fail(gettext("Could not import"), error, saved: saved)
                return
            }
            guard let self else { return }
            self.running = nil
            self.end(outcome)
        }
        updateActions()
    }

    private func showProgress(title: String, detail: String) {
        progressTitle.text = title
        progressLabel.text = detail
        pages.visibleChildName = "progress"
    }

    /// A failure: the dialog stays open on its preview page and says what happened, and an
    /// ``ErrorDialog`` over it says why. Batches saved before the failure stay imported.
    private func fail(_ heading: String, _ error: any Error, saved: Int) {
        let outcome = Outcome.failed(errors.explain(error).sentence)
        self.outcome = outcome
        pages.visibleChildName = "preview"
        let kept = saved > 0 ? String(cFormat: ngettext("%d article was imported before it stopped.", "%d articles were imported before it stopped.", saved), saved) : gettext("Nothing was imported.")
        messageLabel.showMessage(String(cFormat: gettext("%1$s. %2$s"), heading, kept), isError: true)
        updateActions()
        finished?(outcome)
        errors.present(heading, error)
    }

    /// Records the outcome of an import that ran to its end or was cancelled: the dialog closes
    /// and leaves a toast that says how many articles came in.
    private func end(_ outcome: Outcome) {
        self.outcome = outcome
        let title = switch outcome {
        case .imported(let articles, let failures):
            failures > 0
                ? String(cFormat: ngettext("Imported %d article", "Imported %d articles", articles), articles) + String(cFormat: ngettext("; %d file could not be imported", "; %d files could not be imported", failures), failures)
                : String(cFormat: ngettext("Imported %d article", "Imported %d articles", articles), articles)
        case .cancelled(let articles):
            String(cFormat: ngettext("Import cancelled after %d article", "Import cancelled after %d articles", articles), articles)
        case .failed(let sentence):
            sentence
        }
        let toast = TransferToast(title: title, folder: nil)
        toast.show(on: toastOverlay)
        self.toast = toast
        finished?(outcome)
        window.destroy()
    }
}

extension ExistingArticlePolicy {
    /// The policy as the import dialog offers it.
    var choiceLabel: String {
        switch self {
        case .skip: gettext("Skip Them")
        case .replace: gettext("Replace Them")
        case .copy: gettext("Import as Copies")
        }
    }
}

extension ImportPreview.Line.Kind {
    /// The icon before a preview line.
    var iconName: String {
        switch self {
        case .create: "list-add-symbolic"
        case .replace: "document-edit-symbolic"
        case .copy: "edit-copy-symbolic"
        case .skip, .unchanged: "object-select-symbolic"
        case .failure: "dialog-error-symbolic"
        }
    }
}
