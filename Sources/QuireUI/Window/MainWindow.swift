import Foundation
import GtkKit
import Library
import ObjectGraph
import Platform

/// Quire's library window: the sidebar (All Articles, Favorites, folders, tags, Trash, with counts,
/// and a status filter), the article list and the editor (under the open article's tags and
/// status) in an `AdwLeaflet` that folds to one pane on narrow windows, under one header bar with
/// the writer's actions.
///
/// Actions (`win.NAME`, in `MainWindow+Actions.swift`): `new-article` (Ctrl+N), `trash-article`
/// (Delete in the list; leaves a toast whose Undo is `undo-trash`, with the article's ID),
/// `restore-article` (in the Trash), `favorite`, `sort` (`updated`, `created`, `title`), `search`
/// (Ctrl+F; in the editor it finds in the article), `save` (Ctrl+S), `new-folder`,
/// `rename-folder`, `move-to-folder` (a folder name, empty for none), `empty-trash`, `go-back`,
/// `history` (Ctrl+Shift+H, the open article's History panel), `insert-image` (Ctrl+Shift+M, Insert
/// Image… into the open article: ``EditorAttachments``), the sidebar menus' actions with a
/// name as target (`rename-folder-named`, `delete-folder`, `rename-tag`, `delete-tag`) and
/// `undo-delete` (the Undo of a deleted folder's or tag's toast),
/// `sync-now` (Ctrl+R), `preferences` (Ctrl+,), `import` (Ctrl+Shift+I), `export` (Ctrl+Shift+E),
/// `focus-mode` (Ctrl+Shift+F), `fullscreen` (F11) and `leave-focus` (Escape, in either).
///
/// The window fits 360 pixels: on a narrow window the article's actions move into one menu
/// (`MainWindow+Adaptive.swift`).
///
/// An article dragged from the list onto the sidebar moves: onto a folder into it, onto All
/// Articles out of its folder, onto the Trash to the Trash (with the same Undo toast). When the
/// open article leaves the list this way, or by Move to Trash or Restore, the next one opens.
///
/// Sync shows in the header bar (``SyncStatusButton`` in ``statusSlot``) and, when articles have
/// conflicting changes, in a banner above the panes (``ConflictBanner`` in ``bannerSlot``). A
/// read-only library (a newer Quire's, a read-only file) can be read, searched and exported; every
/// action that would write is off and the editor says why.
///
/// Library operations run off the main thread through the window's ``ErrorPresenter``, which also
/// shows every failure (a sentence for the writer, the details behind an expander).
///
/// The window's size and maximized state are restored from GSettings when it opens and saved
/// when it closes. Closing saves the open article.
@MainActor
public final class MainWindow {
    /// The window, from `main-window.ui`.
    public let window: ApplicationWindow
    /// The primary menu.
    public let primaryMenu: MenuModel
    /// The library the window shows.
    public let library: Library
    /// A box at the end of the header bar, for a status widget (the sync status).
    public let statusSlot: Box
    /// A vertical box above the sidebar, list and editor, for banners (conflicts, problems).
    public let bannerSlot: Box
    /// The editor pane.
    public let editor: EditorPane
    /// Sync with a Quire server: the account, the worker and its status.
    public let sync: SyncSession
    /// The header bar's sync status.
    public let syncStatus: SyncStatusButton
    /// The banner that counts articles with conflicting changes and opens their resolution.
    public let conflictBanner: ConflictBanner
    /// Where toasts of the window's dialogs appear.
    let toastOverlay: ToastOverlay
    /// Why nothing in the library may be changed, or nil when it may.
    let readOnlyReason: String?
    /// Runs the window's library operations and shows what failed.
    let errors: ErrorPresenter

    let sidebar: Sidebar
    let articleList: ArticleList
    /// The article open in the editor.
    var session: DraftSession?
    /// Sessions closed with the writer's text unsaved, by article: a conflict dialog the closing
    /// save opened (whose decision the session still carries out), a conflict left to decide
    /// later, a save that failed. Opening the article again shows that text
    /// (``DraftSession/reopen()``); a session leaves once its text is saved or let go.
    var unsavedClosedSessions: [ManagedObjectID: DraftSession] = [:]
    /// Times the window's answers to the writer for `quire-bench` when set (``FeltSpeed``).
    var feltSpeed: FeltSpeed?
    let recorder: DraftRecorder
    private let settings: Settings?
    let leaflet: Leaflet
    let listPane: Widget
    let editorStack: Stack
    let windowTitle: WindowTitle
    let searchBar: SearchBar
    let searchEntry: SearchEntry
    let moveButton: MenuButton
    let trashButton: Button
    let restoreButton: Button
    let sortButton: Widget
    /// Back to the previous pane, shown while the leaflet is folded.
    let backButton: Widget
    let favoriteButton: Widget
    let articleMenuButton: MenuButton
    let primaryMenuButton: MenuButton
    let headerBar: Widget
    let sidebarPane: Widget
    let sidebarSeparator: Widget
    let listSeparator: Widget
    let widthWatch = WidthWatch()
    /// The editor's preferences (Preferences › Editor), applied live.
    let preferences: EditorPreferences
    /// The Editor page of the Preferences window last opened, while it is open (tests use it).
    weak var shownEditorPreferences: EditorPreferencesPage?
    /// Focus mode, fullscreen, and Escape that leaves them.
    var focusActions: (focus: Action, fullscreen: Action, leave: Action)!
    /// The actions ``addActions()`` made that change with the window's state.
    var actions: WindowActions!
    /// The toast offering to undo the last move to the Trash, while it is shown.
    var trashToast: TrashToast?
    /// The article that was open when it was moved to the Trash, opened again by Undo.
    var reopenedByUndo: UUID?
    /// The update of the sidebar's counts waiting for the main loop's next turn, which applies
    /// every count change seen until then at once.
    var folderRefresh: Timeout?
    /// How many times the window has updated the sidebar's counts: only changes that can move a
    /// count cause one.
    var countReads = 0
    /// The sidebar's counts, kept up to date from each change (Library's ``RunningCounts``).
    lazy var runningCounts = RunningCounts(library: library)
    /// The count changes seen since the last update, and the counts shown with their generation.
    var countsToUpdate = (change: CountChange(), shown: LibraryCounts?.none, shownGeneration: 0)
    /// Reads the counts again after reading them failed.
    lazy var countsRereading = ReadAgainAfterFailure { [weak self] in self?.refreshFolders() }
    /// What the Undo of the last folder or tag deletion does, while its toast is offered.
    var undoDeletion: (@MainActor () -> Void)?
    /// The toast offering to undo a folder's or tag's deletion, while it is shown.
    var undoToast: Toast?
    /// The folder or tag name dialog last opened, while it is open (tests read it).
    weak var nameDialog: FolderNameDialog?
    /// The History panel last opened (tests read it).
    weak var historyPanel: HistoryPanel?
    /// The open article's tags and status, above the editor.
    let details = ArticleDetailsBar()
    /// The wait for a long pause in typing, which ends the editing session (`+EditingSessions`).
    var editingPause: Timeout?
    /// How long that pause is (tests shorten it).
    var editingPauseMilliseconds = MainWindow.defaultEditingPauseMilliseconds
    private var folderObservation: ContextObservation?
    /// The editor's preparation, waiting for the main loop to be idle after the start.
    private var editorPreparation: Timeout?

    /// Builds the window over `library`, syncing through `sync`, and adds it to `application`.
    /// With `settings` nil (no installed schema) the window opens at its built-in size and
    /// nothing is remembered.
    public init(application: Application, settings: Settings?, library: Library, sync: SyncSession) throws {
        let builder = try Builder(resource: Quire.resourcePath + "window/main-window.ui")
        window = try builder.object("window", as: ApplicationWindow.self)
        primaryMenu = try builder.object("primary_menu", as: MenuModel.self)
        statusSlot = try builder.object("status_slot")
        bannerSlot = try builder.object("banner_slot")
        leaflet = try builder.object("leaflet")
        listPane = try builder.object("list_pane")
        editorStack = try builder.object("editor_stack")
        windowTitle = try builder.object("window_title")
        searchBar = try builder.object("search_bar")
        searchEntry = try builder.object("search_entry")
        moveButton = try builder.object("move_button")
        trashButton = try builder.object("trash_button")
        restoreButton = try builder.object("restore_button")
        sortButton = try builder.object("sort_button")
        backButton = try builder.object("back_button")
        favoriteButton = try builder.object("favorite_button")
        articleMenuButton = try builder.object("article_menu_button")
        primaryMenuButton = try builder.object("primary_menu_button")
        headerBar = try builder.object("header_bar")
        sidebarPane = try builder.object("sidebar_pane")
        sidebarSeparator = try builder.object("sidebar_separator")
        listSeparator = try builder.object("list_separator")
        toastOverlay = try builder.object("toast_overlay")
        self.library = library
        self.settings = settings
        preferences = EditorPreferences(settings: settings)
        self.sync = sync
        errors = ErrorPresenter(libraryPath: library.url.path, over: window)
        if case .readOnly(let reason) = library.access {
            readOnlyReason = LibraryProblem(.readOnly(reason), path: library.url.path).message.translated
        } else {
            readOnlyReason = nil
        }
        syncStatus = try SyncStatusButton(session: sync)
        statusSlot.append(syncStatus.widget)
        conflictBanner = try ConflictBanner(session: sync)
        bannerSlot.append(conflictBanner.widget)
        // The editor hands its text over `recoveryDelay` after an edit; the recorder's interval
        // is shortened by as much, so that typing is still kept within two seconds of the edit.
        recorder = DraftRecorder(library: library, interval: .milliseconds(2000 - Int(DraftSession.recoveryDelay)))

        let viewContext = library.viewContext
        // The library's operations run in background contexts; their saves reach the list here.
        viewContext.automaticallyMergesChangesFromParent = true
        editor = try EditorPane()
        editor.widget.expandsVertically = true
        try builder.object("editor_slot", as: Box.self).append(details.widget)
        try builder.object("editor_slot", as: Box.self).append(editor.widget)
        // A read-only library's articles cannot be dragged anywhere.
        sidebar = Sidebar(listBox: try builder.object("sidebar_list"), acceptsArticleDrops: readOnlyReason == nil)
        articleList = try ArticleList(
            context: viewContext, query: ArticleQuery(), rowsAreDraggable: readOnlyReason == nil,
            listView: try builder.object("article_list"), stack: try builder.object("list_stack"),
            status: try builder.object("list_status"))

        if let settings { WindowState(settings: settings).apply(to: window) }
        window.application = application
        conflictBanner.parent = window
        conflictBanner.beforeResolving = { [weak self] in self?.session?.save() }
        conflictBanner.announce = { [weak self] sentence in
            guard let self else { return }
            TransferToast(title: sentence, folder: nil).show(on: toastOverlay)
        }
        actions = addActions()
        focusActions = addFocusActions()
        addPaneActions()
        connectWidgets(builder: builder)
        connectArticleDetails()
        try builder.object("window_box", as: Box.self).append(widthWatch)
        widthWatch.widthChanged = { [weak self] width in self?.windowWidthChanged(width) }
        followPreferences()
        window.connect(.closeRequest) { [weak self] in
            self?.closeArticle()
            self?.saveState()
            self?.finishPendingWork(application: application)
            self?.stopSyncing(application: application)
            return false
        }
        // Counts change with the window's own saves and with the library operations' saves,
        // which reach the view context as merges; only changes that can move a count update
        // them (not an autosave while typing). A merge that changed the open article (a conflict
        // resolved, a version the sync worker took or merged) is shown in the editor.
        folderObservation = viewContext.addObserver { [weak self] notification in
            switch notification {
            case .didSave(let save):
                let counted = CountChange(save)
                guard !counted.isEmpty else { return }
                MainActor.assumeIsolated { self?.scheduleFolderRefresh(after: counted) }
            case .objectsDidChange(let change):
                let counted = CountChange(change)
                MainActor.assumeIsolated {
                    if !counted.isEmpty { self?.scheduleFolderRefresh(after: counted) }
                    self?.showOpenArticle(ifRefreshedIn: change)
                }
            case .willSave: break
            }
        }
        refreshFolders()
        showTitle()
        updateActions()
        prepareEditorAfterStart()
        // GTK holds the window until it is destroyed; the window holds this controller until then.
        window.keepAlive(self)
    }

    /// Shows the window and brings it to the front.
    public func present() {
        window.present()
    }

    /// Starts syncing when the writer signed in earlier, and shows conflicts already on record.
    public func startSyncing() async {
        do {
            try await sync.start()
        } catch {
            showError(gettext("Could not start syncing"), error)
        }
        await conflictBanner.refresh()
    }

    /// Has the editor parse the Markdown language (``EditorPane/prepareHighlighting()``) once the
    /// start is drawn and the main loop is idle: after the list's first rows, or after the
    /// window's first frame when the list is not shown (the empty library's page, or a narrow
    /// window folded to the sidebar). Parsed when the first article opened, it made that open
    /// take 96–119 ms against 13–15 for the next ones (`first_article_ms` in `quire-bench ux`:
    /// 16–17 ms since).
    private func prepareEditorAfterStart() {
        window.afterNextFrame { [weak self] in
            guard let self else { return }
            let prepare: @MainActor () -> Void = { [weak self] in
                self?.editorPreparation = Timeout(milliseconds: 0, priority: .idle) { [weak self] in
                    self?.editor.prepareHighlighting()
                }
            }
            let list = articleList.listView
            if list.widget.isMapped { list.whenRowsShown(prepare) } else { prepare() }
        }
    }

    /// Stops the worker so that its lease is free for the next start; the application stays
    /// alive until it has stopped (an operation in flight finishes or is resent by its key).
    private func stopSyncing(application: Application) {
        guard let worker = sync.worker else { return }
        application.hold()
        Task { @MainActor in
            await worker.stop()
            application.release()
        }
    }

    /// Keeps the application alive until the window's background work has ended: a library
    /// operation cut short by the end of the process would leave, say, the recovery copy of the
    /// article just saved, offered back on the next start as if it were newer.
    private func finishPendingWork(application: Application) {
        guard errors.hasPendingWork else { return }
        application.hold()
        Task { @MainActor in
            await waitForPendingWork()
            application.release()
        }
    }

    private func saveState() {
        guard let settings else { return }
        WindowState(window: window).save(to: settings)
    }

    /// Applies the editor's preferences now and whenever they change, and remembers the
    /// preview the writer shows or hides.
    private func followPreferences() {
        let apply: @MainActor () -> Void = { [weak self] in
            guard let self else { return }
            preferences.applyStyle()
            editor.appearance = preferences.appearance
            editor.setPreviewBeside(preferences.previewVisible)
            editor.spelling.isEnabled = preferences.spellChecking
            library.historySizeLimit = preferences.historySizeLimit
        }
        apply()
        preferences.changed = apply
        editor.previewVisibilityChanged = { [weak self] visible in self?.preferences.previewVisible = visible }
    }

    // MARK: Background work and errors

    /// Runs a library operation off the main thread (``ErrorPresenter/run(_:_:)``); a failure is
    /// shown under `heading`.
    func run(_ heading: String, _ body: @escaping @Sendable () async throws -> @MainActor () -> Void) {
        errors.run(heading, body)
    }

    /// Waits for the library operations started so far, and those they start.
    func waitForPendingWork() async {
        await errors.waitForPendingWork()
    }

    /// Tells the writer what failed, in a dialog over the window (``ErrorPresenter/present(_:_:)``).
    func showError(_ heading: String, _ error: any Error) {
        errors.present(heading, error)
    }

    /// Errors shown so far (tests read them).
    var shownErrors: [String] { errors.shown }
}
