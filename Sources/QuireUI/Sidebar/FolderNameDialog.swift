import CGtk
import GtkKit

/// Asks the writer for a folder's name, for a new folder or to rename one.
@MainActor
final class FolderNameDialog {
    /// The dialog's window (an `AdwMessageDialog`).
    let window: Window
    private let entry: Widget
    private var retainedUntilAnswered: FolderNameDialog?

    /// A dialog over `parent` with a heading ("New Folder"), a button label ("Create") and the
    /// name to start from. `answered` gets the name, trimmed, unless the writer cancels or
    /// leaves it blank.
    init(heading: String, action: String, name: String, over parent: Window?, answered: @escaping @MainActor (String) -> Void) throws {
        let builder = try Builder(resource: Quire.resourcePath + "sidebar/folder-name-dialog.ui")
        window = try builder.object("folder_dialog")
        entry = try builder.object("name_entry")
        adw_message_dialog_set_heading(window.pointer(as: AdwMessageDialog.self), heading)
        adw_message_dialog_set_response_label(window.pointer(as: AdwMessageDialog.self), "save", action)
        gtk_editable_set_text(entry.opaquePointer, name)
        window.transientFor = parent
        window.connect(.response) { [weak self] response in
            guard let self else { return }
            let name = String(cString: gtk_editable_get_text(entry.opaquePointer)).trimmingCharacters(in: .whitespacesAndNewlines)
            retainedUntilAnswered = nil
            if response == "save", !name.isEmpty { answered(name) }
        }
    }

    /// Shows the dialog; it keeps itself alive until answered.
    func present() {
        retainedUntilAnswered = self
        window.present()
        gtk_widget_grab_focus(entry.widgetPointer)
    }
}
