import CGtk
import Foundation
import GtkKit
import Library
import ObjectGraph

/// Quire's library window: the sidebar (All Articles, Favorites, folders with counts, Trash), the
/// article list and the editor in an `AdwLeaflet` that folds to one pane on narrow windows, under
/// one header bar with the writer's actions.
///
/// Actions (`win.NAME`): `new-article` (Ctrl+N), `trash-article` (Delete in the list; leaves a
/// toast whose Undo is `undo-trash`, with the article's ID), `restore-article` (in the Trash),
/// `favorite`, `sort` (`updated`, `created`, `title`), `search` (Ctrl+F; in the editor it finds
/// in the article), `save` (Ctrl+S), `new-folder`, `rename-folder`, `move-to-folder` (a folder
/// name, empty for none), `empty-trash`, `go-back`, `sync-now` (Ctrl+R), `preferences` (Ctrl+,),
/// `import` (Ctrl+Shift+I), `export` (Ctrl+Shift+E).
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
    public let statusSlot: Widget
    /// A vertical box above the sidebar, list and editor, for banners (conflicts, problems).
    public let bannerSlot: Widget
    /// The editor pane.
    public let editor: EditorPane
    /// Sync with a Quire server: the account, the worker and its status.
    public let sync: SyncSession
    /// The header bar's sync status.
    public let syncStatus: SyncStatusButton
    /// The banner that counts articles with conflicting changes and opens their resolution.
    public let conflictBanner: ConflictBanner
    /// Where toasts of the window's dialogs appear.
    let toastOverlay: Widget
    /// Why nothing in the library may be changed, or nil when it may.
    let readOnlyReason: String?

    let sidebar: Sidebar
    let articleList: ArticleList
    /// The article open in the editor.
    private(set) var session: DraftSession?
    let recorder: DraftRecorder
    private let settings: Settings?
    private let leaflet: Widget
    private let listPane: Widget
    private let editorStack: Widget
    private let windowTitle: Widget
    private let searchBar: Widget
    let searchEntry: Widget
    private let moveButton: Widget
    private let trashButton: Widget
    private let restoreButton: Widget
    private var favoriteAction: Action!
    private var sortAction: Action!
    private var articleActions: [Action] = []
    private var renameFolderAction: Action!
    private var emptyTrashAction: Action!
    private var restoreAction: Action!
    /// The toast offering to undo the last move to the Trash, while it is shown.
    private(set) var trashToast: TrashToast?
    /// The article that was open when it was moved to the Trash, opened again by Undo.
    private var reopenedByUndo: UUID?
    /// Actions that write to the library, off while it is read-only.
    private var writingActions: [Action] = []
    private var folderRefresh: Timeout?
    private var folderObservation: ContextObservation?
    /// Background work the window started (library operations), so tests and quitting can wait.
    private var pendingWork: [UUID: Task<Void, Never>] = [:]

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
        toastOverlay = try builder.object("toast_overlay")
        self.library = library
        self.settings = settings
        self.sync = sync
        if case .readOnly(let reason) = library.access {
            readOnlyReason = LibraryProblem(.readOnly(reason), path: library.url.path).message
        } else {
            readOnlyReason = nil
        }
        syncStatus = try SyncStatusButton(session: sync)
        gtk_box_append(statusSlot.pointer(as: GtkBox.self), syncStatus.widget.widgetPointer)
        conflictBanner = try ConflictBanner(session: sync)
        gtk_box_append(bannerSlot.pointer(as: GtkBox.self), conflictBanner.widget.widgetPointer)
        recorder = DraftRecorder(library: library)

        let viewContext = library.viewContext
        // The library's operations run in background contexts; their saves reach the list here.
        viewContext.automaticallyMergesChangesFromParent = true
        editor = try EditorPane()
        let editorSlot: Widget = try builder.object("editor_slot")
        gtk_widget_set_vexpand(editor.widget.widgetPointer, 1)
        gtk_box_append(editorSlot.pointer(as: GtkBox.self), editor.widget.widgetPointer)
        // A read-only library's articles cannot be dragged anywhere.
        sidebar = Sidebar(listBox: try builder.object("sidebar_list"), acceptsArticleDrops: readOnlyReason == nil)
        articleList = try ArticleList(
            context: viewContext, query: ArticleQuery(), rowsAreDraggable: readOnlyReason == nil,
            listView: try builder.object("article_list"), stack: try builder.object("list_stack"),
            status: try builder.object("list_status"))

        if let settings { WindowState(settings: settings).apply(to: window) }
        window.application = application
        conflictBanner.parent = window
        addActions()
        connectWidgets(builder: builder)
        window.connect(.closeRequest) { [weak self] in
            self?.closeArticle()
            self?.saveState()
            self?.finishPendingWork(application: application)
            self?.stopSyncing(application: application)
            return false
        }
        // Counts change with the window's own saves and with the library operations' saves,
        // which reach the view context as merges.
        folderObservation = viewContext.addObserver { [weak self] notification in
            switch notification {
            case .didSave, .objectsDidChange: MainActor.assumeIsolated { self?.scheduleFolderRefresh() }
            case .willSave: break
            }
        }
        refreshFolders()
        showTitle()
        updateActions()
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
            showError("Could not start syncing", error)
        }
        await conflictBanner.refresh()
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

    /// Offers back, one dialog at a time, the text of articles that were not saved when Quire
    /// last stopped: restore or discard each. A read-only library keeps them for a later start.
    public func offerRecoveredDrafts() async {
        guard readOnlyReason == nil else { return }
        let drafts: [RecoveredDraft]
        do {
            drafts = try await library.unrecoveredDrafts()
        } catch {
            showError("Could not look for unsaved text", error)
            return
        }
        for draft in drafts {
            do {
                let dialog = try RecoveredDraftDialog(draft: draft, over: window)
                switch await dialog.decision() {
                case .restore:
                    if session?.articleID == draft.articleID { closeArticle() }
                    try await library.restoreDraft(for: draft.articleID)
                case .discard:
                    try await library.discardDraft(for: draft.articleID)
                case .later:
                    break
                }
            } catch {
                showError("Could not recover the text of “\(ConflictDialog.displayTitle(draft.title))”", error)
            }
        }
    }

    // MARK: Actions

    private func addActions() {
        let newArticle = window.addAction("new-article", accelerators: ["<Control>n"]) { [weak self] in self?.newArticle() }
        window.addAction("save", accelerators: ["<Control>s"]) { [weak self] in self?.session?.save() }
        window.addAction("search", accelerators: ["<Control>f"]) { [weak self] in self?.search() }
        window.addAction("sync-now", accelerators: ["<Control>r"]) { [weak self] in self?.sync.syncNow() }
        window.addAction("preferences", accelerators: ["<Control>comma"]) { [weak self] in self?.showPreferences() }
        window.addAction("export", accelerators: ["<Control><Shift>e"]) { [weak self] in self?.showExport() }
        let importArticles = window.addAction("import", accelerators: ["<Control><Shift>i"]) { [weak self] in self?.showImport() }
        let newFolder = window.addAction("new-folder") { [weak self] in self?.askForNewFolder() }
        renameFolderAction = window.addAction("rename-folder") { [weak self] in self?.askToRenameFolder() }
        emptyTrashAction = window.addAction("empty-trash") { [weak self] in self?.emptyTrash() }
        window.addAction("go-back") { [weak self] in self?.goBack() }
        let trash = window.addAction("trash-article") { [weak self] in self?.trashSelectedArticle() }
        restoreAction = window.addAction("restore-article") { [weak self] in self?.restoreSelectedArticle() }
        let undoTrash = Action(owning: g_simple_action_new(TrashToast.undoAction, g_variant_type_checked_("s")))
        undoTrash.connect(.activateAction) { [weak self] parameter in
            guard let parameter, let id = TrashToast.articleID(in: OpaquePointer(parameter)) else { return }
            self?.undoTrash(id)
        }
        window.add(undoTrash)
        favoriteAction = Action(name: "favorite", state: false) { [weak self] isFavorite in self?.setFavorite(isFavorite) }
        window.add(favoriteAction)
        sortAction = Action(owning: g_simple_action_new_stateful("sort", g_variant_type_checked_("s"), g_variant_new_string("updated")))
        sortAction.connect(.changeState) { [weak self] requested in
            guard let self, let requested else { return }
            let variant = OpaquePointer(requested)
            guard let order = Self.order(named: String(cString: g_variant_get_string(variant, nil))) else { return }
            g_simple_action_set_state(sortAction.opaquePointer, variant)
            articleList.query.order = order
        }
        window.add(sortAction)
        let move = Action(owning: g_simple_action_new("move-to-folder", g_variant_type_checked_("s")))
        move.connect(.activateAction) { [weak self] parameter in
            guard let parameter else { return }
            let name = String(cString: g_variant_get_string(OpaquePointer(parameter), nil))
            self?.moveSelectedArticle(toFolder: name.isEmpty ? nil : name)
        }
        window.add(move)
        articleActions = [trash, favoriteAction, move]
        writingActions = [newArticle, importArticles, newFolder, renameFolderAction, emptyTrashAction, undoTrash]
        // Delete belongs to the list: in the editor it deletes text.
        let listActions = ActionGroup(prefix: "list", on: articleList.listView.widget)
        listActions.addAction("trash-article", accelerators: ["Delete"]) { [weak self] in self?.trashSelectedArticle() }
    }

    /// The sort order an action target names.
    static func order(named name: String) -> ArticleQuery.Order? {
        switch name {
        case "updated": .updated
        case "created": .created
        case "title": .title
        default: nil
        }
    }

    private func connectWidgets(builder: Builder) {
        sidebar.selectionChanged = { [weak self] item in self?.sidebarSelected(item) }
        sidebar.articleDropped = { [weak self] id, item in self?.drop(id, on: item) ?? false }
        articleList.selectionChanged = { [weak self] objectID in self?.open(objectID) }
        articleList.failed = { [weak self] error in self?.showError("Could not read the library", error) }
        searchEntry.connect(Signal<() -> Void>("search-changed")) { [weak self] in
            guard let self else { return }
            articleList.query.searchText = String(cString: gtk_editable_get_text(searchEntry.opaquePointer))
        }
        gtk_search_bar_connect_entry(OpaquePointer(searchBar.widgetPointer), searchEntry.opaquePointer)
        if let searchButton = try? builder.object("search_button", as: Widget.self) {
            g_object_bind_property(
                searchButton.objectPointer, "active", searchBar.objectPointer, "search-mode-enabled",
                GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
        }
        // Closing the search bar shows the whole list again.
        searchBar.connect(.notify("search-mode-enabled")) { [weak self] _ in
            guard let self, gtk_search_bar_get_search_mode(OpaquePointer(searchBar.widgetPointer)) == 0 else { return }
            gtk_editable_set_text(searchEntry.opaquePointer, "")
            articleList.query.searchText = ""
        }
        if let backButton = try? builder.object("back_button", as: Widget.self) {
            g_object_bind_property(leaflet.objectPointer, "folded", backButton.objectPointer, "visible", G_BINDING_SYNC_CREATE)
        }
    }

    // MARK: Sidebar and list

    private func sidebarSelected(_ item: SidebarItem) {
        articleList.query.filter = item.filter
        showTitle()
        updateActions()
        if isFolded { adw_leaflet_set_visible_child(OpaquePointer(leaflet.widgetPointer), listPane.widgetPointer) }
    }

    private var isFolded: Bool { adw_leaflet_get_folded(OpaquePointer(leaflet.widgetPointer)) != 0 }

    private func goBack() {
        _ = adw_leaflet_navigate(OpaquePointer(leaflet.widgetPointer), ADW_NAVIGATION_DIRECTION_BACK)
    }

    private func showTitle() {
        adw_window_title_set_subtitle(OpaquePointer(windowTitle.widgetPointer), sidebar.selected.title)
    }

    private func search() {
        // In the editor Ctrl+F finds in the article.
        if let focus = gtk_root_get_focus(OpaquePointer(window.widgetPointer)),
           gtk_widget_is_ancestor(focus, editor.widget.widgetPointer) != 0 {
            _ = editor.widget.activateAction("editor.find")
            return
        }
        gtk_search_bar_set_search_mode(OpaquePointer(searchBar.widgetPointer), 1)
        gtk_widget_grab_focus(searchEntry.widgetPointer)
    }

    /// Refreshes the sidebar's folders and counts shortly after a save (many saves, one read).
    private func scheduleFolderRefresh() {
        guard folderRefresh?.isPending != true else { return }
        folderRefresh = Timeout(milliseconds: 250) { [weak self] in self?.refreshFolders() }
    }

    private func refreshFolders() {
        run("Could not read the folders") { [library] in
            let folders = try await library.folders()
            return { [weak self] in self?.show(folders: folders) }
        }
    }

    private func show(folders: [FolderSummary], selecting item: SidebarItem? = nil) {
        sidebar.show(folders: folders, selecting: item)
        showTitle()
        let menu = g_menu_new()!
        let none = g_menu_item_new("No Folder", nil)!
        g_menu_item_set_action_and_target_value(none, "win.move-to-folder", g_variant_new_string(""))
        g_menu_append_item(menu, none)
        g_object_unref(UnsafeMutableRawPointer(none))
        for folder in folders {
            let item = g_menu_item_new(folder.name, nil)!
            g_menu_item_set_action_and_target_value(item, "win.move-to-folder", g_variant_new_string(folder.name))
            g_menu_append_item(menu, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        gtk_menu_button_set_menu_model(OpaquePointer(moveButton.widgetPointer), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(menu))
    }

    private func updateActions() {
        let hasArticle = session != nil
        let inTrash = sidebar.selected == .trash
        let writable = readOnlyReason == nil
        for action in articleActions { action.isEnabled = writable && hasArticle && !inTrash }
        for action in writingActions { action.isEnabled = writable }
        renameFolderAction.isEnabled = writable && sidebar.selected.folderName != nil
        emptyTrashAction.isEnabled = writable && inTrash
        restoreAction.isEnabled = writable && hasArticle && inTrash
        trashButton.isVisible = !inTrash
        restoreButton.isVisible = inTrash
        if let article = session?.article {
            let isFavorite = article.isFavorite
            if favoriteAction.state != isFavorite {
                g_simple_action_set_state(favoriteAction.opaquePointer, g_variant_new_boolean(isFavorite ? 1 : 0))
            }
        }
    }

    // MARK: The open article

    /// Opens an article in the editor, saving and closing the one open before.
    private func open(_ objectID: ManagedObjectID?) {
        guard session?.objectID != objectID else { return }
        closeArticle()
        guard let objectID else { return }
        do {
            session = try DraftSession(
                objectID: objectID, viewContext: library.viewContext, library: library, recorder: recorder, editor: editor,
                window: window, report: { [weak self] heading, error in self?.showError(heading, error) })
            if let readOnlyReason { editor.readOnlyReason = readOnlyReason }
            gtk_stack_set_visible_child_name(OpaquePointer(editorStack.widgetPointer), "editor")
            if isFolded { adw_leaflet_set_visible_child(OpaquePointer(leaflet.widgetPointer), editorStack.widgetPointer) }
        } catch {
            showError("Could not open the article", error)
        }
        updateActions()
    }

    /// Saves and closes the open article, if any.
    func closeArticle() {
        guard let session else { return }
        if let removingRecoveryCopy = session.close() { track(removingRecoveryCopy) }
        self.session = nil
        gtk_stack_set_visible_child_name(OpaquePointer(editorStack.widgetPointer), "none")
        updateActions()
    }

    /// Creates an empty article in the place shown (a folder's articles go into the folder),
    /// opens it and puts the cursor in its title. It is saved at once, with its outbox operation.
    func newArticle() {
        if sidebar.selected == .trash || sidebar.selected == .favorites { sidebar.select(.all) }
        if articleList.query.isSearching { gtk_search_bar_set_search_mode(OpaquePointer(searchBar.widgetPointer), 0) }
        closeArticle()
        let context = library.viewContext
        do {
            let now = Library.now()
            let article = StoredArticle(context: context)
            article.id = UUID()
            article.created = now
            article.updated = now
            try article.setContent(ArticleContent(title: "", body: "", folder: sidebar.selected.folderName), at: now)
            try LocalChanges.record(in: context, at: now)
            try context.save()
            articleList.select(article.objectID)
            editor.focusTitle()
        } catch {
            context.rollback()
            showError("Could not create an article", error)
        }
    }

    private func trashSelectedArticle() {
        guard let session, sidebar.selected != .trash else { return }
        moveToTrash(session.articleID, title: session.article.title)
    }

    /// Moves an article to the Trash (the open one is saved and closed first, and the list
    /// selects the next) and leaves a toast whose Undo brings it back.
    private func moveToTrash(_ id: UUID, title: String) {
        let wasOpen = session?.articleID == id
        if wasOpen { leaveOpenArticle() }
        run("Could not move “\(ConflictDialog.displayTitle(title))” to the Trash") { [library] in
            try await library.moveToTrash([id])
            return { [weak self] in self?.offerUndo(trashing: id, title: title, reopening: wasOpen) }
        }
    }

    private func offerUndo(trashing id: UUID, title: String, reopening: Bool) {
        // Only the last move can be undone from a toast; the earlier ones wait in the Trash.
        trashToast?.dismiss()
        let toast = TrashToast(articleID: id, title: title)
        let shown = toast.toast.objectPointer
        toast.toast.connect(Signal<() -> Void>("dismissed")) { [weak self] in
            // The toast's Undo dismisses it before the action runs: the article to reopen stays known.
            guard let self, trashToast?.toast.objectPointer == shown else { return }
            trashToast = nil
        }
        toast.show(on: toastOverlay)
        trashToast = toast
        reopenedByUndo = reopening ? id : nil
    }

    /// Takes an article out of the Trash again; the one that was open when it was trashed opens.
    private func undoTrash(_ id: UUID) {
        trashToast?.dismiss()
        trashToast = nil
        let reopens = reopenedByUndo == id
        run("Could not take the article out of the Trash") { [library] in
            try await library.restore([id])
            return { [weak self] in
                guard let self, reopens else { return }
                do {
                    if let article = try viewArticle(id) { articleList.selectWhenListed(article.objectID) }
                } catch {
                    showError("Could not open the article again", error)
                }
            }
        }
    }

    /// Puts the article open in the Trash back where it was (its folder, unless the folder was
    /// deleted meanwhile); the list selects the next article in the Trash.
    private func restoreSelectedArticle() {
        guard let session, sidebar.selected == .trash else { return }
        let (id, title) = (session.articleID, session.article.title)
        leaveOpenArticle()
        run("Could not restore “\(ConflictDialog.displayTitle(title))”") { [library] in
            try await library.restore([id])
            return {}
        }
    }

    /// Saves and closes the open article before an operation takes it out of the list, and asks
    /// the list to select the article that takes its place.
    private func leaveOpenArticle() {
        guard let session else { return }
        articleList.selectNeighbour(whenLeaving: session.objectID)
        closeArticle()
    }

    private func setFavorite(_ isFavorite: Bool) {
        guard let session else { return }
        session.save()
        let id = session.articleID
        run("Could not change the favorite") { [library] in
            try await library.setFavorite(isFavorite, for: [id])
            return {}
        }
    }

    private func moveSelectedArticle(toFolder name: String?) {
        guard let session else { return }
        move(session.articleID, toFolder: name)
    }

    /// Files an article in a folder (nil: none). When the open article moves out of the folder
    /// shown, the list selects the next.
    private func move(_ id: UUID, toFolder name: String?) {
        if let session, session.articleID == id {
            session.save()
            articleList.selectNeighbour(whenLeaving: session.objectID)
        }
        run("Could not move the article") { [library] in
            try await library.moveArticles([id], toFolder: name)
            return {}
        }
    }

    /// What an article dropped on a place of the sidebar does: a folder files it there, All
    /// Articles takes it out of its folder, the Trash trashes it. Returns false, changing
    /// nothing, when it is in the Trash, already there, or the library is read-only.
    func drop(_ id: UUID, on item: SidebarItem) -> Bool {
        guard readOnlyReason == nil else { return false }
        let article: StoredArticle
        do {
            guard let found = try viewArticle(id), found.trashed == nil else { return false }
            article = found
        } catch {
            showError("Could not read the dropped article", error)
            return false
        }
        switch item {
        case .trash:
            // The open article's title may be typed but not saved yet.
            let openTitle = session?.articleID == id ? session?.article.title : nil
            moveToTrash(id, title: openTitle ?? article.title)
        case .all, .folder:
            guard article.folder?.name != item.folderName else { return false }
            move(id, toFolder: item.folderName)
        case .favorites:
            return false
        }
        return true
    }

    /// The article with `id` in the view context, nil when there is none.
    private func viewArticle(_ id: UUID) throws -> StoredArticle? {
        try library.viewContext.fetch(FetchRequest<StoredArticle>(predicate: \.id == id, fetchLimit: 1)).first
    }

    private func emptyTrash() {
        closeArticle()
        run("Could not empty the trash") { [library] in
            _ = try await library.emptyTrash()
            return {}
        }
    }

    // MARK: Preferences, export and import

    private func showPreferences() {
        do {
            try SyncPreferencesWindow(session: sync, over: window).window.present()
        } catch {
            showError("Could not open the preferences", error)
        }
    }

    /// Opens the export dialog; the open article is offered as the selection.
    func showExport() {
        session?.save()
        let selection = session.map { [$0.articleID] } ?? []
        Task { @MainActor [weak self] in
            guard let self else { return }
            do {
                try await ExportDialog.present(library: library, over: window, toastOverlay: toastOverlay, selection: selection)
            } catch {
                showError("Could not open the export dialog", error)
            }
        }
    }

    private func showImport() {
        do {
            try ImportDialog.present(library: library, over: window, toastOverlay: toastOverlay)
        } catch {
            showError("Could not open the import dialog", error)
        }
    }

    // MARK: Folders

    private func askForNewFolder() {
        presentFolderDialog(heading: "New Folder", action: "_Create", name: "") { [weak self] name in
            self?.createFolder(named: name)
        }
    }

    private func askToRenameFolder() {
        guard let old = sidebar.selected.folderName else { return }
        presentFolderDialog(heading: "Rename Folder", action: "_Rename", name: old) { [weak self] name in
            self?.renameFolder(old, to: name)
        }
    }

    /// Creates a folder and selects it.
    func createFolder(named name: String) {
        run("Could not create the folder “\(name)”") { [library] in
            try await library.createFolder(named: name)
            let folders = try await library.folders()
            return { [weak self] in self?.show(folders: folders, selecting: .folder(name)) }
        }
    }

    /// Renames a folder and keeps it selected under its new name.
    func renameFolder(_ old: String, to name: String) {
        session?.save()
        run("Could not rename the folder “\(old)”") { [library] in
            try await library.renameFolder(old, to: name)
            let folders = try await library.folders()
            return { [weak self] in self?.show(folders: folders, selecting: .folder(name)) }
        }
    }

    private func presentFolderDialog(heading: String, action: String, name: String, answered: @escaping @MainActor (String) -> Void) {
        do {
            try FolderNameDialog(heading: heading, action: action, name: name, over: window, answered: answered).present()
        } catch {
            showError("Could not ask for the folder's name", error)
        }
    }

    // MARK: Background work and errors

    /// Runs a library operation off the main thread; its result (a closure) runs back on the
    /// main actor. A failure is shown under `heading`.
    func run(_ heading: String, _ body: @escaping @Sendable () async throws -> @MainActor () -> Void) {
        let key = UUID()
        // The task runs on the main actor, so it cannot finish before it is registered.
        pendingWork[key] = Task { @MainActor [weak self] in
            do {
                let then = try await body()
                then()
            } catch {
                self?.showError(heading, error)
            }
            self?.pendingWork[key] = nil
        }
    }

    /// Counts `work` among the window's background work until it ends.
    private func track(_ work: Task<Void, Never>) {
        let key = UUID()
        pendingWork[key] = Task { @MainActor [weak self] in
            await work.value
            self?.pendingWork[key] = nil
        }
    }

    /// Keeps the application alive until the window's background work has ended: a library
    /// operation cut short by the end of the process would leave, say, the recovery copy of the
    /// article just saved, offered back on the next start as if it were newer.
    private func finishPendingWork(application: Application) {
        guard !pendingWork.isEmpty else { return }
        application.hold()
        Task { @MainActor in
            await waitForPendingWork()
            application.release()
        }
    }

    /// Waits for the library operations started so far, and those they start.
    func waitForPendingWork() async {
        while let task = pendingWork.values.first {
            await task.value
        }
    }

    /// Errors shown so far (tests read them).
    private(set) var shownErrors: [String] = []

    /// Tells the writer what failed, in a dialog over the window, and on standard error.
    func showError(_ heading: String, _ error: any Error) {
        let message = "\(heading): \(error)"
        shownErrors.append(message)
        FileHandle.standardError.write(Data("quire: \(message)\n".utf8))
        guard let dialog = adw_message_dialog_new(window.windowPointer, heading, "\(error)") else { return }
        adw_message_dialog_add_response(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: AdwMessageDialog.self), "close", "_Close")
        gtk_window_present(UnsafeMutableRawPointer(dialog).assumingMemoryBound(to: GtkWindow.self))
    }

    private func saveState() {
        guard let settings else { return }
        WindowState(window: window).save(to: settings)
    }
}
