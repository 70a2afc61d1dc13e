import Foundation
import GtkKit
import Library
import Platform

/// Tags from the sidebar's menu: renaming one (onto an existing tag merges them, as Library
/// does) and deleting one from every article, with an Undo toast.
extension MainWindow {
    func askToRenameTag(_ name: String) {
        presentFolderDialog(heading: gettext("Rename Tag"), action: gettext("_Rename"), name: name) { [weak self] newName in
            self?.renameTag(name, to: newName)
        }
    }

    /// Renames a tag on every article that carries it (one save), keeping it selected when it was.
    func renameTag(_ name: String, to newName: String) {
        session?.save()
        do {
            try library.renameTagInViewContext(name, to: newName)
        } catch {
            showError(String(cFormat: gettext("Could not rename the tag “%s”"), name), error)
        }
        refreshFolders(selecting: sidebar.selected == .tag(name) ? .tag(newName) : nil)
    }

    /// Takes a tag off every article (one save) and leaves a toast whose Undo puts it back on them.
    func deleteTag(_ name: String) {
        session?.save()
        do {
            let articles = try library.deleteTagInViewContext(name)
            offerUndo(of: String(cFormat: gettext("Tag “%s” deleted"), name)) { [weak self] in
                guard let self else { return }
                do {
                    try library.tagArticlesInViewContext(articles, with: name)
                } catch {
                    showError(String(cFormat: gettext("Could not bring back the tag “%s”"), name), error)
                }
                refreshFolders(selecting: .tag(name))
            }
        } catch {
            showError(String(cFormat: gettext("Could not delete the tag “%s”"), name), error)
        }
        refreshFolders()
    }

    /// Adds the actions of the sidebar's folder and tag menus, each taking the name as target,
    /// and Undo of their deletions; returns those that write.
    func addSidebarActions() -> [Action] {
        let actions = [
            Action(name: "rename-folder-named", parameter: String.self) { [weak self] name in self?.askToRenameFolder(name) },
            Action(name: "delete-folder", parameter: String.self) { [weak self] name in self?.deleteFolder(name) },
            Action(name: "rename-tag", parameter: String.self) { [weak self] name in self?.askToRenameTag(name) },
            Action(name: "delete-tag", parameter: String.self) { [weak self] name in self?.deleteTag(name) },
            Action(name: "undo-delete", parameter: String.self) { [weak self] _ in self?.undoLastDeletion() },
        ]
        for action in actions { window.add(action) }
        return actions
    }
}
