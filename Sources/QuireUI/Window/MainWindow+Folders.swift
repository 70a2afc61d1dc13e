import GtkKit
import Library

/// Folders: creating and renaming them, and the sidebar's list of them with their counts, which
/// follows every save.
extension MainWindow {
    func askForNewFolder() {
        presentFolderDialog(heading: "New Folder", action: "_Create", name: "") { [weak self] name in
            self?.createFolder(named: name)
        }
    }

    func askToRenameFolder() {
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

    /// Refreshes the sidebar's folders and counts shortly after a save (many saves, one read).
    func scheduleFolderRefresh() {
        guard folderRefresh?.isPending != true else { return }
        folderRefresh = Timeout(milliseconds: 250) { [weak self] in self?.refreshFolders() }
    }

    func refreshFolders() {
        run("Could not read the folders") { [library] in
            let folders = try await library.folders()
            return { [weak self] in self?.show(folders: folders) }
        }
    }

    /// Lists `folders` in the sidebar and in the Move to Folder menu.
    private func show(folders: [FolderSummary], selecting item: SidebarItem? = nil) {
        sidebar.show(folders: folders, selecting: item)
        showTitle()
        let menu = Menu()
        menu.append("No Folder", action: "win.move-to-folder", target: "")
        for folder in folders { menu.append(folder.name, action: "win.move-to-folder", target: folder.name) }
        moveButton.menuModel = menu
        showArticleMenu(moving: menu)
    }
}
