import GtkKit
import Library
import Platform

/// Folders: creating, renaming and deleting them (with an Undo toast), and the sidebar's places
/// with their counts (All Articles, Favorites, folders, tags), which follow every save.
extension MainWindow {
    func askForNewFolder() {
        presentFolderDialog(heading: gettext("New Folder"), action: gettext("_Create"), name: "") { [weak self] name in
            self?.createFolder(named: name)
        }
    }

    func askToRenameFolder(_ name: String? = nil) {
        guard let old = name ?? sidebar.selected.folderName else { return }
        presentFolderDialog(heading: gettext("Rename Folder"), action: gettext("_Rename"), name: old) { [weak self] name in
            self?.renameFolder(old, to: name)
        }
    }

    /// Creates a folder and selects it. The sidebar shows it through ``refreshFolders(selecting:)``,
    /// whose readings are ordered: counts read here and shown directly were not, so the did-save
    /// refresh's reading from before the folder existed could be shown after them, taking the new
    /// folder and its selection away.
    func createFolder(named name: String) {
        run(String(cFormat: gettext("Could not create the folder “%s”"), name)) { [library] in
            try await library.createFolder(named: name)
            return { [weak self] in self?.refreshFolders(selecting: .folder(name)) }
        }
    }

    /// Renames a folder and keeps it selected under its new name (shown as ``createFolder(named:)``
    /// shows a new one).
    func renameFolder(_ old: String, to name: String) {
        session?.save()
        run(String(cFormat: gettext("Could not rename the folder “%s”"), old)) { [library] in
            try await library.renameFolder(old, to: name)
            return { [weak self] in self?.refreshFolders(selecting: .folder(name)) }
        }
    }

    /// Deletes a folder (its articles go to no folder, in one save) and leaves a toast whose
    /// Undo makes the folder again and files its articles back.
    func deleteFolder(_ name: String) {
        session?.save()
        do {
            let articles = try library.deleteFolderInViewContext(named: name)
            offerUndo(of: String(cFormat: gettext("Folder “%s” deleted"), name)) { [weak self] in
                guard let self else { return }
                do {
                    try library.createFolderInViewContext(named: name)
                    try library.moveArticlesInViewContext(articles, toFolder: name)
                } catch {
                    showError(String(cFormat: gettext("Could not bring back the folder “%s”"), name), error)
                }
                refreshFolders(selecting: .folder(name))
            }
        } catch {
            showError(String(cFormat: gettext("Could not delete the folder “%s”"), name), error)
        }
        refreshFolders()
    }

    /// Shows a toast titled `title` whose Undo (`win.undo-delete`) runs `undo`; it replaces the
    /// toast of an earlier deletion, whose Undo is then gone.
    func offerUndo(of title: String, _ undo: @escaping @MainActor () -> Void) {
        undoToast?.dismiss()
        let toast = Toast(title: Markup.escape(title))
        toast.buttonLabel = gettext("_Undo")
        toast.setAction("win.undo-delete", target: title)
        toast.timeout = 8
        let shown = toast.objectPointer
        toast.connect(.dismissed) { [weak self] in
            // The toast's Undo dismisses it before the action runs: keep `undoDeletion` for it.
            guard let self, undoToast?.objectPointer == shown else { return }
            undoToast = nil
        }
        toastOverlay.add(toast)
        undoToast = toast
        undoDeletion = undo
    }

    /// `win.undo-delete`: undoes the last deletion whose toast is offered.
    func undoLastDeletion() {
        let undo = undoDeletion
        undoDeletion = nil
        undoToast?.dismiss()
        undoToast = nil
        undo?()
    }

    func presentFolderDialog(heading: String, action: String, name: String, answered: @escaping @MainActor (String) -> Void) {
        do {
            let dialog = try FolderNameDialog(heading: heading, action: action, name: name, over: window, answered: answered)
            dialog.present()
            nameDialog = dialog
        } catch {
            showError(gettext("Could not ask for the folder's name"), error)
        }
    }

    /// Updates the sidebar's folders and counts on the main loop's next turn after a change that
    /// can move a count: the changes seen until then are applied together (a save's own change
    /// and its did-save notification, the merges of a batch), within the frame.
    func scheduleFolderRefresh(after change: CountChange) {
        countsToUpdate.change.formUnion(change)
        guard folderRefresh?.isPending != true else { return }
        folderRefresh = Timeout(milliseconds: 0) { [weak self] in self?.refreshFolders() }
    }

    /// Brings the counts up to date with the changes seen (``RunningCounts`` reads only the
    /// articles they name, off the main thread) and shows them, newer counts never replaced by
    /// older ones, and the sidebar's rows left as they are (an open row menu too) when nothing
    /// moved; the open article's tags follow too (a tag renamed or deleted).
    func refreshFolders(selecting item: SidebarItem? = nil) {
        folderRefresh?.cancel()
        folderRefresh = nil
        countReads += 1
        let change = countsToUpdate.change
        countsToUpdate.change = CountChange()
        run(gettext("Could not read the folders")) { [runningCounts] in
            let reading: RunningCounts.Reading
            do {
                reading = try await runningCounts.counts(after: change)
            } catch {
                return { [weak self] in self?.countsReadFailed(error, change: change) }
            }
            return { [weak self] in
                guard let self else { return }
                countsRereading.succeeded()
                let isNewer = reading.generation > countsToUpdate.shownGeneration
                if isNewer { countsToUpdate.shownGeneration = reading.generation }
                if isNewer && reading.counts != countsToUpdate.shown {
                    countsToUpdate.shown = reading.counts
                    show(SidebarCounts(reading.counts), selecting: item)
                } else if let item {
                    sidebar.select(item)
                }
                showArticleDetails()
            }
        }
    }

    /// Reading the counts failed: the sidebar keeps what it showed, which no longer follows the
    /// store. The change goes back among those to apply, and the counts are read again after a
    /// pause until a reading succeeds (in full: ``RunningCounts`` forgets what it remembered
    /// when applying a change fails); the first failure is reported.
    private func countsReadFailed(_ error: any Error, change: CountChange) {
        countsToUpdate.change.formUnion(change)
        if countsRereading.failed() { showError(gettext("Could not read the folders"), error) }
    }

    /// Shows the places with their counts in the sidebar, and the folders in the Move to Folder menu.
    private func show(_ counts: SidebarCounts, selecting item: SidebarItem?) {
        let folders = counts.folders
        sidebar.show(counts, selecting: item)
        showTitle()
        let menu = Menu()
        menu.append(gettext("No Folder"), action: "win.move-to-folder", target: "")
        for folder in folders { menu.append(folder.name, action: "win.move-to-folder", target: folder.name) }
        moveButton.menuModel = menu
        showArticleMenu(moving: menu)
    }
}
