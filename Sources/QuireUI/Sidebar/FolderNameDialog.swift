import GtkKit

/// Asks the writer for a folder's or tag's name, for a new folder or to rename one.
@MainActor
final class FolderNameDialog {
    /// The dialog's window.
    let window: MessageDialog
    /// Where the name is typed.
    let entry: Entry
    private var retainedUntilAnswered: FolderNameDialog?

    /// A dialog over `parent` with a heading ("New Folder"), a button label ("Create") and the
    /// name to start from. `answered` gets the name, trimmed, unless the writer cancels or
    /// leaves it blank.
    init(heading: String, action: String, name: String, over parent: Window?, answered: @escaping @MainActor (String) -> Void) throws {
        let builder = try Builder(resource: Quire.resourcePath + "sidebar/folder-name-dialog.ui")
        window = try builder.object("folder_dialog")
        entry = try builder.object("name_entry")
        window.heading = heading
        // The heading is the entry's name for a screen reader ("Rename Folder"), as its label.
        entry.setAccessibleLabel(heading)
        window.setLabel(action, ofResponse: "save")
        entry.text = name
        window.transientFor = parent
        window.connect(.response) { [weak self] response in
            guard let self else { return }
            let name = entry.text.trimmingCharacters(in: .whitespacesAndNewlines)
            retainedUntilAnswered = nil
            if response == "save", !name.isEmpty { answered(name) }
        }
    }

    /// Shows the dialog; it keeps itself alive until answered.
    func present() {
        retainedUntilAnswered = self
        window.present()
        entry.grabFocus()
    }
}
